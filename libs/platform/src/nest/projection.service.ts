import { Inject, Injectable, Logger } from '@nestjs/common';
import { EVENT_STORE, type EventStore, type Subscription } from '../event-store/event-store.port';
import { ProjectionRuntime } from '../projection/projection-runtime';
import type { Projector } from '../projection/projector';
import { READ_STORE, type Doc, type ReadStore } from '../read-store/read-store.port';

/**
 * Owns every read model of the process. Feature modules register their projectors while the app
 * initialises; at bootstrap the collections are dropped and refolded from position 0 (standalone
 * keeps read models in memory), then the subscription stays live.
 */
@Injectable()
export class ProjectionService {
  private readonly logger = new Logger('Projections');
  private readonly projectors: Projector[] = [];
  private runtime: ProjectionRuntime | null = null;
  private subscription: Subscription | null = null;
  private caughtUp = false;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
  ) {}

  register<D extends Doc>(...projectors: Projector<D>[]): void {
    if (this.runtime) throw new Error('projectors must be registered before the projections start');
    this.projectors.push(...(projectors as unknown as Projector[]));
  }

  async start(): Promise<void> {
    const runtime = new ProjectionRuntime(this.store, this.projectors);
    this.runtime = runtime;
    for (const projector of this.projectors) await this.store.collection(projector.collection).drop();
    await runtime.createIndexes();
    const started = Date.now();
    const caughtUp = new Promise<void>((resolve, reject) => {
      void this.events
        .subscribeToAll(
          async (event) => {
            if (runtime.handles(event.type)) await runtime.apply(event);
            else runtime.markApplied(event.position);
          },
          {
            afterPosition: -1,
            onCaughtUp: () => {
              this.caughtUp = true;
              resolve();
            },
            onError: (error) => {
              this.logger.error(`projection subscription failed: ${String(error)}`);
              reject(error);
            },
          },
        )
        .then((s) => (this.subscription = s), reject);
    });
    await caughtUp;
    this.logger.log(`read models rebuilt to position ${runtime.position} in ${Date.now() - started} ms`);
  }

  get ready(): boolean {
    return this.caughtUp;
  }

  /** Read-your-writes for a handler that just appended at `position`. */
  async waitFor(position: number, timeoutMs = 5000): Promise<void> {
    if (position < 0) return;
    if (!this.runtime) throw new Error('projections have not started');
    await this.runtime.waitFor(position, timeoutMs);
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
  }
}
