import type { ReadStore } from '../read-store/read-store.port';

/** Where a subscriber (relay, process manager) remembers the last global position it handled. */
export interface CheckpointStore {
  load(name: string): Promise<number>;
  save(name: string, position: number): Promise<void>;
}

export const CHECKPOINT_STORE = Symbol('CheckpointStore');

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
    await this.store
      .collection('checkpoints')
      .updateOne({ _id: name }, { $set: { position } }, { upsert: true });
  }
}
