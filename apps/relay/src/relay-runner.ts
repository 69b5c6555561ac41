import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, EVENT_RELAY, READ_STORE, RelayLease, type Clock, type EventRelay, type ReadStore } from '@analyst/platform';

/**
 * Runs the relay while this replica holds the lease. A second replica keeps trying and takes over
 * within one lease period after the holder dies; the relay resumes from the shared checkpoint.
 */
@Injectable()
export class RelayRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Relay');
  private readonly lease: RelayLease;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private tick: Promise<void> = Promise.resolve();

  constructor(
    @Inject(EVENT_RELAY) private readonly relay: EventRelay,
    @Inject(READ_STORE) store: ReadStore,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.lease = new RelayLease(store, clock, `relay-${randomUUID()}`);
  }

  get active(): boolean {
    return this.running;
  }

  onApplicationBootstrap(): void {
    const every = Math.floor(this.lease.ttlMs / 3);
    const step = () => {
      this.tick = this.tick.then(() => this.renew()).catch((error) => this.logger.error(`lease check failed: ${String(error)}`));
    };
    step();
    this.timer = setInterval(step, every);
  }

  private async renew(): Promise<void> {
    const held = await this.lease.tryAcquire();
    if (held && !this.running) {
      await this.relay.start();
      this.running = true;
      this.logger.log('lease acquired: relaying events to Kafka');
    } else if (!held && this.running) {
      await this.relay.stop();
      this.running = false;
      this.logger.warn('lease lost: relay stopped');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.tick;
    if (this.running) {
      await this.relay.stop();
      this.running = false;
      await this.lease.release();
    }
  }
}
