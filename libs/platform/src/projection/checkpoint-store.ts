import { DuplicateKeyError, type ReadStore } from '../read-store/read-store.port';

/**
 * Where a subscriber (relay, projections, process manager) remembers the last global position it
 * handled. Several replicas may share one name: `save` never moves a checkpoint backwards, so the
 * stored position is always one that at least one replica has fully handled.
 */
export interface CheckpointStore {
  load(name: string): Promise<number>;
  /** Moves the checkpoint forward to `position`; a lower position than the stored one changes nothing. */
  save(name: string, position: number): Promise<void>;
}

export const CHECKPOINT_STORE = Symbol('CheckpointStore');

/** Concurrent upserts of one new name lose at most one race each: the document exists after it. */
const SAVE_ATTEMPTS = 5;

/** Checkpoints as documents in the read store (MongoDB in production). */
export class ReadStoreCheckpointStore implements CheckpointStore {
  constructor(private readonly store: ReadStore) {}

  async load(name: string): Promise<number> {
    const doc = await this.store
      .collection<{ _id: string; position: number }>('checkpoints')
      .findOne({ _id: name });
    return doc?.position ?? -1;
  }

  async save(name: string, position: number): Promise<void> {
    const checkpoints = this.store.collection('checkpoints');
    for (let attempt = 1; ; attempt++) {
      try {
        await checkpoints.updateOne({ _id: name }, { $max: { position } }, { upsert: true });
        return;
      } catch (error) {
        // Two replicas created the document at once; it exists now, so the next upsert updates it.
        if (!(error instanceof DuplicateKeyError) || attempt >= SAVE_ATTEMPTS) throw error;
      }
    }
  }
}
