import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { ANALYST_CONFIG, type AnalystConfig } from '../config/analyst-config';
import {
  EVENT_STORE,
  type EventStore,
  READ_STORE,
  type ReadStore,
  type RecordedEvent,
} from '@analyst/eventsourcing';
import { DEFAULT_BACKOFF, Sleeper, backoffDelay, type Backoff } from '../projection/backoff';
import { CHECKPOINT_STORE, type CheckpointStore } from '../projection/checkpoint-store';
import {
  DEFAULT_HEALTH_BOUNDS,
  ProjectionHealth,
  type ProjectionHealthBounds,
} from '../projection/projection-health';
import { ProjectionMetrics } from '../projection/projection-metrics';
import { ProjectionRuntime } from '../projection/projection-runtime';
import type { ProjectionStep, Projector } from '../projection/projector';
import { SupervisedProjection } from '../projection/supervised-projection';
import { HealthRegistry } from './health-registry';
import { HttpMetrics } from './metrics';

/**
 * How read models start: `rebuild` drops them and folds the log from position 0 (standalone, whose
 * read models live in memory); `resume` continues from the stored checkpoint (MongoDB read models).
 */
export type ProjectionMode = 'rebuild' | 'resume';
export const PROJECTION_MODE = Symbol('ProjectionMode');

/** Optional tuning of the projections' supervision (tests shorten it). */
export interface ProjectionOptions extends Partial<ProjectionHealthBounds> {
  backoff?: Backoff;
  /** How often the log head is read for stuck detection; default 5 s (lag metrics do not wait for it). */
  headPollMs?: number;
}
export const PROJECTION_OPTIONS = Symbol('ProjectionOptions');

/** Events between two checkpoint saves in `resume` mode; a crash re-applies at most these (idempotently). */
const CHECKPOINT_EVERY = 200;

/**
 * Owns every read model of the process. Feature modules register their projectors while the app
 * initialises; at bootstrap the projections catch up with the event log, then stay live. They read
 * the log itself (EventStoreDB `$all` or the SQLite file), so read-your-writes can wait on a global
 * position. Failures are retried with backoff, never fatal once caught up; health is reported as
 * `projection:<service>` and lag as `analyst_projection_*` metrics.
 */
@Injectable()
export class ProjectionService {
  private readonly logger = new Logger('Projections');
  private readonly projectors: Projector[] = [];
  private readonly steps: ProjectionStep[] = [];
  private readonly listeners: ((event: RecordedEvent) => void)[] = [];
  private readonly bounds: ProjectionHealthBounds;
  private readonly health: ProjectionHealth;
  private readonly metrics: ProjectionMetrics | null;
  private runtime: ProjectionRuntime | null = null;
  private supervised: SupervisedProjection | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_MODE) private readonly mode: ProjectionMode,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore,
    @Inject(ANALYST_CONFIG) private readonly config: AnalystConfig,
    @Optional() private readonly registry?: HealthRegistry,
    @Optional() httpMetrics?: HttpMetrics,
    @Optional() @Inject(PROJECTION_OPTIONS) private readonly options: ProjectionOptions = {},
  ) {
    this.bounds = {
      stuckAfterMs: options.stuckAfterMs ?? DEFAULT_HEALTH_BOUNDS.stuckAfterMs,
      deadAfterMs: options.deadAfterMs ?? DEFAULT_HEALTH_BOUNDS.deadAfterMs,
    };
    this.health = new ProjectionHealth(this.bounds);
    this.metrics = httpMetrics ? new ProjectionMetrics(httpMetrics.registry) : null;
  }

  private get name(): string {
    return this.config.ANALYST_SERVICE;
  }

  private get checkpointName(): string {
    return `projections:${this.name}`;
  }

  private get healthName(): string {
    return `projection:${this.name}`;
  }

  /** Adds read models; one registered already (two modules of one process share it) is kept once. */
  register(...projectors: Projector[]): void {
    if (this.runtime) throw new Error('projectors must be registered before the projections start');
    for (const projector of projectors)
      if (!this.projectors.includes(projector)) this.projectors.push(projector);
  }

  /** Adds a step run after an event's documents are written (see ProjectionStep); kept once by name. */
  registerStep(step: ProjectionStep): void {
    if (this.runtime) throw new Error('steps must be registered before the projections start');
    if (!this.steps.some((s) => s.name === step.name)) this.steps.push(step);
  }

  /** Hears every projected event after its documents are written (see ProjectionRuntime.onApplied). */
  onApplied(listener: (event: RecordedEvent) => void): void {
    if (this.runtime) throw new Error('listeners must be registered before the projections start');
    this.listeners.push(listener);
  }

  async start(): Promise<void> {
    const runtime = new ProjectionRuntime(this.store, this.projectors, {
      onConflict: (c) => this.metrics?.conflict(this.name, c.collection, c.index),
      // Resumed read models live in a store that replicas share (see ProjectionRuntimeOptions.log).
      log: this.mode === 'resume' ? this.events : undefined,
      steps: this.steps,
    });
    for (const listener of this.listeners) runtime.onApplied(listener);
    this.runtime = runtime;
    this.registry?.register(this.healthName, () => this.health.check());
    this.metrics?.track(this.name, this.health, async () => this.supervised?.readHead());
    const started = Date.now();
    const after = await this.prepare(runtime);
    this.supervised = new SupervisedProjection(this.events, runtime, {
      name: this.name,
      health: this.health,
      checkpoint:
        this.mode === 'resume'
          ? { store: this.checkpoints, name: this.checkpointName, every: CHECKPOINT_EVERY }
          : null,
      metrics: this.metrics ?? undefined,
      backoff: this.options.backoff,
      headPollMs: this.options.headPollMs,
      giveUpStartAfterMs: this.bounds.deadAfterMs,
    });
    await this.supervised.start(after);
    this.logger.log(`read models at position ${runtime.position} in ${Date.now() - started} ms`);
  }

  /** Drops (rebuild) or loads the checkpoint (resume), and creates indexes; retried while the store is unreachable. */
  private async prepare(runtime: ProjectionRuntime): Promise<number> {
    const sleeper = new Sleeper();
    for (let attempt = 0; ; attempt++) {
      try {
        let after = -1;
        if (this.mode === 'rebuild') {
          for (const projected of [...this.projectors, ...this.steps])
            await this.store.collection(projected.collection).drop();
        } else {
          after = await this.checkpoints.load(this.checkpointName);
        }
        await runtime.createIndexes();
        this.health.recovered();
        return after;
      } catch (error) {
        this.health.failed(error);
        if (this.health.failingForMs >= this.bounds.deadAfterMs) throw error;
        const delay = backoffDelay(this.options.backoff ?? DEFAULT_BACKOFF, attempt);
        this.logger.error(`cannot prepare the read models (${String(error)}); retrying in ${delay} ms`);
        await sleeper.sleep(delay);
      }
    }
  }

  /** Caught up with the log at least once (the initial rebuild or resume is done). */
  get ready(): boolean {
    return this.health.hasCaughtUp;
  }

  /** Read-your-writes for a handler that just appended at `position`. */
  async waitFor(position: number, timeoutMs?: number): Promise<void> {
    if (position < 0) return;
    if (!this.runtime) throw new Error('projections have not started');
    // A write of this process: the log reaches it now, whatever the projection has read.
    this.health.headSeen(position);
    // Read models in memory keep up within milliseconds; MongoDB ones are a network hop per write.
    await this.runtime.waitFor(position, timeoutMs ?? (this.mode === 'rebuild' ? 5_000 : 30_000));
  }

  async stop(): Promise<void> {
    await this.supervised?.stop();
    this.supervised = null;
    this.metrics?.untrack(this.name);
    this.registry?.unregister(this.healthName);
  }
}
