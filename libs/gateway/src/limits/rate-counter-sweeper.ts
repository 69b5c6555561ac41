import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { CLOCK, type Clock } from '@analyst/platform';
import { RATE_COUNTERS, type RateCounters } from './rate-counters';
import type { MongoRateCounters } from './mongo-rate-counters';

const SWEEP_EVERY_MS = 60_000;

/**
 * Deletes the shared counters whose windows have passed, once a minute on every replica (the
 * deletes are idempotent). Without it the collection only grows: FerretDB has no TTL indexes.
 */
@Injectable()
export class RateCounterSweeper implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RateCounterSweeper.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(RATE_COUNTERS) private readonly counters: RateCounters,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweepOnce(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async sweepOnce(): Promise<number> {
    try {
      return await (this.counters as MongoRateCounters).sweep(this.clock.now());
    } catch (error) {
      this.logger.warn(`sweeping expired rate counters failed: ${String(error)}; retrying in a minute`);
      return 0;
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
