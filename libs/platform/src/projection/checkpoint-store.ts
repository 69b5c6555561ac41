import { DuplicateKeyError, type CheckpointStore, type Doc, type ReadStore } from '@analyst/eventsourcing';

// The port moved to the core (issue 19) so the SQLite adapter can implement it without platform;
// re-exported here for the platform files that import it from this path.
export type { CheckpointStore };

export const CHECKPOINT_STORE = Symbol('CheckpointStore');

/** Concurrent upserts of one new name lose at most one race each: the document exists after it. */
const SAVE_ATTEMPTS = 5;

interface CheckpointDoc extends Doc {
  position: number;
}

interface MarkDoc extends CheckpointDoc {
  name: string;
}

/**
 * Checkpoints as documents in the read store (MongoDB in production). Each save inserts a mark
 * `<name>@<position>` (`checkpoint_marks`): an insert is atomic on every server, whereas FerretDB v1
 * applies an update as read-then-write, so two concurrent `$max` updates can leave the lower value.
 * The highest mark is the checkpoint; lower marks are pruned (only ever below one that exists, so
 * the highest survives). `checkpoints/<name>` keeps a `$max` summary for readers and for
 * checkpoints saved before the marks existed; `load` takes the higher of the two.
 */
export class ReadStoreCheckpointStore implements CheckpointStore {
  constructor(private readonly store: ReadStore) {}

  async load(name: string): Promise<number> {
    const [summary, mark] = await Promise.all([
      this.store.collection<CheckpointDoc>('checkpoints').findOne({ _id: name }),
      this.store.collection<MarkDoc>('checkpoint_marks').findOne({ name }, { sort: { position: -1 } }),
    ]);
    return Math.max(summary?.position ?? -1, mark?.position ?? -1);
  }

  async save(name: string, position: number): Promise<void> {
    const marks = this.store.collection<MarkDoc>('checkpoint_marks');
    try {
      await marks.insertOne({ _id: `${name}@${position}`, name, position });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error; // another replica saved the same position
    }
    await marks.deleteMany({ name, position: { $lt: position } });
    await this.saveSummary(name, position);
  }

  private async saveSummary(name: string, position: number): Promise<void> {
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
