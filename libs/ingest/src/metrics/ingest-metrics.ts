import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Counter, Gauge } from 'prom-client';
import {
  CLOCK,
  HttpMetrics,
  PeriodicGauges,
  READ_STORE,
  counterOn,
  gaugeOn,
  type Clock,
  type ReadStore,
} from '@analyst/platform';
import {
  CONTENT_JOBS,
  CREDITS_GROUP,
  DISCOVERY_GROUP,
  FETCH_GROUP,
  INGEST_OPTIONS,
  JOBS_GROUP,
  type IngestOptions,
} from '../ingest.tokens';
import { QueuingJobResumer } from '../content-jobs/queuing-job-resumer';

/** How often the job gauges are recomputed: read-model counts, so on a timer rather than per scrape. */
export const INGEST_METRICS_REFRESH_MS = 15_000;
/** Statuses a job passes through; the terminal ones only grow and are not reported. */
export const OPEN_JOB_STATUSES = ['discovering', 'queuing', 'syncing'] as const;
/** The `manager` label of the resumer's errors; the Kafka process managers use their consumer group. */
export const QUEUING_RESUMER = 'queuing-resumer';
const MANAGERS = [FETCH_GROUP, CREDITS_GROUP, JOBS_GROUP, DISCOVERY_GROUP, QUEUING_RESUMER];

/**
 * Ingest metrics on the process's registry: content jobs per open status and those left in
 * `queuing` past ANALYST_QUEUING_RESUME_AFTER_MS (the resumer should finish them within a sweep),
 * and process-manager failures. Without HttpMetrics it records nothing.
 */
@Injectable()
export class IngestMetrics extends PeriodicGauges {
  private readonly jobs: Gauge<'status'> | null = null;
  private readonly queuingOverdue: Gauge | null = null;
  private readonly managerErrors: Counter<'manager'> | null = null;
  private resumerErrorsSeen = 0;

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(INGEST_OPTIONS) private readonly options: IngestOptions,
    private readonly resumer: QueuingJobResumer,
    @Optional() httpMetrics?: HttpMetrics,
  ) {
    super(INGEST_METRICS_REFRESH_MS, new Logger('IngestMetrics'), 'content job metrics');
    const registry = httpMetrics?.registry;
    if (!registry) return;
    this.jobs = gaugeOn(registry, {
      name: 'analyst_content_jobs',
      help: 'Content jobs not yet ended, per status (content_jobs read model)',
      labelNames: ['status'],
    });
    this.queuingOverdue = gaugeOn(registry, {
      name: 'analyst_content_jobs_queuing_overdue',
      help: 'Content jobs quiet in queuing for longer than ANALYST_QUEUING_RESUME_AFTER_MS, which the resumer has yet to finish',
    });
    const resumerDelta = () => {
      // The resumer keeps a plain count; move the counter by what it added since the last scrape.
      const delta = this.resumer.errors - this.resumerErrorsSeen;
      this.resumerErrorsSeen = this.resumer.errors;
      if (delta > 0) this.managerErrors?.inc({ manager: QUEUING_RESUMER }, delta);
    };
    this.managerErrors = counterOn(registry, {
      name: 'analyst_process_manager_errors_total',
      help: 'Process-manager handler failures (the message is delivered again) and resume attempts that threw',
      labelNames: ['manager'],
      collect: resumerDelta,
    });
    // Every manager starts at 0, so increase() sees the first failure rather than a new series.
    for (const manager of MANAGERS) this.managerErrors.inc({ manager }, 0);
  }

  protected active(): boolean {
    return this.jobs !== null;
  }

  /** Recomputes the job gauges now (the timer calls this). */
  async refresh(): Promise<void> {
    if (!this.jobs || !this.queuingOverdue) return;
    const jobs = this.store.collection(CONTENT_JOBS);
    const quietSince = new Date(this.clock.now().getTime() - this.options.queuingResumeAfterMs).toISOString();
    // The same filter the resumer sweeps with, so the gauge counts exactly what it should pick up.
    const [counts, overdue] = await Promise.all([
      Promise.all(OPEN_JOB_STATUSES.map((status) => jobs.count({ status }))),
      jobs.count({ status: 'queuing', updatedAt: { $lte: quietSince } }),
    ]);
    OPEN_JOB_STATUSES.forEach((status, i) => this.jobs!.set({ status }, counts[i]!));
    this.queuingOverdue.set(overdue);
  }

  /** A handler that counts its failures under `manager` and rethrows them unchanged. */
  countFailures<A extends unknown[], R>(
    manager: string,
    handler: (...args: A) => Promise<R>,
  ): (...args: A) => Promise<R> {
    return async (...args: A) => {
      try {
        return await handler(...args);
      } catch (error) {
        this.managerErrors?.inc({ manager });
        throw error;
      }
    };
  }
}

/** For the process managers: counts through `metrics` when there is one, else the handler as is. */
export function countFailures<A extends unknown[], R>(
  metrics: IngestMetrics | undefined,
  manager: string,
  handler: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return metrics ? metrics.countFailures(manager, handler) : handler;
}
