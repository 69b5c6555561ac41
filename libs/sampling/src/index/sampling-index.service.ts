import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EVENT_STORE, type EventStore, type Subscription } from '@analyst/platform';
import { SAMPLING_EVENT_TYPES, SamplingIndex } from './sampling-index';

const HANDLED = new Set<string>(SAMPLING_EVENT_TYPES);

/**
 * Keeps the sampling index in memory: folds the whole log at boot, then stays live on the event
 * store's subscription. `current()` waits for every event stored before the request, so a sample
 * taken right after POST /analyses sees the new analysis.
 */
@Injectable()
export class SamplingIndexService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SamplingIndex');
  readonly index = new SamplingIndex();
  private position = -1;
  private subscription: Subscription | null = null;
  private readonly waiters: { position: number; resolve: () => void }[] = [];

  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async onApplicationBootstrap(): Promise<void> {
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      void this.events
        .subscribeToAll(
          async (event) => {
            if (HANDLED.has(event.type)) this.index.apply(event);
            this.advance(event.position);
          },
          { afterPosition: -1, onCaughtUp: resolve, onError: reject },
        )
        .then((s) => (this.subscription = s), reject);
    });
    this.logger.log(`sampling index at position ${this.position} in ${Date.now() - started} ms`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
  }

  private advance(position: number): void {
    if (position <= this.position) return;
    this.position = position;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i].position <= position) {
        this.waiters[i].resolve();
        this.waiters.splice(i, 1);
      }
    }
  }

  /** The index once it has folded every event stored now. */
  async current(timeoutMs = 10_000): Promise<SamplingIndex> {
    const head = await this.events.headPosition();
    if (head > this.position) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`sampling index did not reach position ${head}`)), timeoutMs);
        this.waiters.push({ position: head, resolve: () => (clearTimeout(timer), resolve()) });
      });
    }
    return this.index;
  }
}
