import { Inject, Injectable, Logger } from '@nestjs/common';
import { ANALYST_CONFIG, type AnalystConfig } from '../config/analyst-config';
import { EVENT_STORE, type EventStore, type Subscription } from '../event-store/event-store.port';
import { CHECKPOINT_STORE, type CheckpointStore } from '../projection/checkpoint-store';
import { ProjectionRuntime } from '../projection/projection-runtime';
import type { Projector } from '../projection/projector';
import { READ_STORE, type Doc, type ReadStore } from '../read-store/read-store.port';

/**
 * How read models start: `rebuild` drops them and folds the log from position 0 (standalone, whose
 * read models live in memory); `resume` continues from the stored checkpoint (MongoDB read models).
 */
export type ProjectionMode = 'rebuild' | 'resume';
export const PROJECTION_MODE = Symbol('ProjectionMode');

/** Events between two checkpoint saves in `resume` mode; a crash re-applies at most these (idempotently). */
const CHECKPOINT_EVERY = 200;

/**
 * Owns every read model of the process. Feature modules register their projectors while the app
 * initialises; at bootstrap the projections catch up with the event log, then stay live. They read
 * the log itself (EventStoreDB `$all` or the SQLite file), so read-your-writes can wait on a global
 * position.
 */
@Injectable()
export class ProjectionService {
  private readonly logger = new Logger('Projections');
  private readonly projectors: Projector[] = [];
  private runtime: ProjectionRuntime | null = null;
  private subscription: Subscription | null = null;
  private caughtUp = false;

  private sinceSave = 0;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_MODE) private readonly mode: ProjectionMode,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore,
    @Inject(ANALYST_CONFIG) private readonly config: AnalystConfig,
  ) {}

  private get checkpointName(): string {
    return `projections:${this.config.ANALYST_SERVICE}`;
  }

  register<D extends Doc>(...projectors: Projector<D>[]): void {
    if (this.runtime) throw new Error('projectors must be registered before the projections start');
    this.projectors.push(...(projectors as unknown as Projector[]));
  }

  async start(): Promise<void> {
    const runtime = new ProjectionRuntime(this.store, this.projectors);
    this.runtime = runtime;
    let after = -1;
    if (this.mode === 'rebuild') {
      for (const projector of this.projectors) await this.store.collection(projector.collection).drop();
    } else {
      after = await this.checkpoints.load(this.checkpointName);
      runtime.markApplied(after);
    }
    await runtime.createIndexes();
    const started = Date.now();
    const caughtUp = new Promise<void>((resolve, reject) => {
      void this.events
        .subscribeToAll(
          async (event) => {
            if (runtime.handles(event.type)) await runtime.apply(event);
            else runtime.markApplied(event.position);
            if (this.mode === 'resume' && ++this.sinceSave >= CHECKPOINT_EVERY) await this.saveCheckpoint();
          },
          {
            afterPosition: after,
            onCaughtUp: () => {
              this.caughtUp = true;
              if (this.mode === 'resume') void this.saveCheckpoint();
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
  async waitFor(position: number, timeoutMs?: number): Promise<void> {
    if (position < 0) return;
    if (!this.runtime) throw new Error('projections have not started');
    // Read models in memory keep up within milliseconds; MongoDB ones are a network hop per write.
    await this.runtime.waitFor(position, timeoutMs ?? (this.mode === 'rebuild' ? 5_000 : 30_000));
  }

  private async saveCheckpoint(): Promise<void> {
    this.sinceSave = 0;
    if (this.runtime && this.runtime.position >= 0) await this.checkpoints.save(this.checkpointName, this.runtime.position);
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
    if (this.mode === 'resume') await this.saveCheckpoint();
  }
}
