import { DuplicateKeyError, type Clock, type Doc, type ReadStore } from '@analyst/platform';
import { DEFAULT_DELIVERY_PARTITIONS, type HeldPartition, type PartitionClaims } from '@analyst/webhooks';

export const PARTITIONS_COLLECTION = 'webhook_partitions';
export const REPLICAS_COLLECTION = 'webhook_notifier_replicas';

/** One delivery partition: who holds it until when, and how far its deliveries were created. */
interface PartitionDoc extends Doc {
  partition: number;
  holder: string | null;
  /** Milliseconds; 0 when free. */
  expiresAt: number;
  checkpoint: number;
}

/** A replica's heartbeat: the live replicas' count sets each one's fair share. */
interface ReplicaDoc extends Doc {
  expiresAt: number;
}

/**
 * Partition claims on the read store, one document per partition and one heartbeat per replica,
 * as the relay's lease keeps its generations: every change of hands is an `updateOne` filtered on
 * the holder and expiry the replica read (a compare-and-set), so of two replicas taking a lapsed
 * partition only one matches. Expiries are compared by the replicas' clocks, as the lease does.
 */
export class ReadStorePartitionClaims implements PartitionClaims {
  constructor(
    private readonly store: ReadStore,
    private readonly clock: Clock,
    readonly count = DEFAULT_DELIVERY_PARTITIONS,
    /** How long a claim and a heartbeat last without a refresh. */
    readonly ttlMs = 10_000,
  ) {}

  private get partitions() {
    return this.store.collection<PartitionDoc>(PARTITIONS_COLLECTION);
  }

  private get replicas() {
    return this.store.collection<ReplicaDoc>(REPLICAS_COLLECTION);
  }

  private static id(partition: number): string {
    return `p${partition}`;
  }

  async initialize(checkpoint: number): Promise<void> {
    // Heartbeats of replicas gone for an hour say nothing any more.
    await this.replicas.deleteMany({ expiresAt: { $lt: this.clock.now().getTime() - 3_600_000 } });
    const existing = new Set((await this.partitions.find({})).map((d) => d.partition));
    for (let partition = 0; partition < this.count; partition++) {
      if (existing.has(partition)) continue;
      try {
        await this.partitions.insertOne(
          { _id: ReadStorePartitionClaims.id(partition), partition, holder: null, expiresAt: 0, checkpoint },
          { idOnly: true },
        );
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error; // another replica created it first
      }
    }
  }

  async refresh(holder: string): Promise<HeldPartition[]> {
    const now = this.clock.now().getTime();
    const expiresAt = now + this.ttlMs;
    // The heartbeat and the live count, and the partitions' read beside them (one wait, not three).
    const [live, all] = await Promise.all([
      this.replicas
        .updateOne({ _id: holder }, { $set: { expiresAt } }, { upsert: true })
        .then(() => this.replicas.count({ expiresAt: { $gt: now } })),
      this.partitions.find({}),
    ]);
    const share = Math.ceil(this.count / Math.max(1, live));
    const docs = new Map(all.map((d) => [d.partition, d]));
    const mine = [...docs.values()]
      .filter((d) => d.holder === holder)
      .sort((a, b) => a.partition - b.partition);
    const held = await this.renew(holder, mine.slice(0, share), expiresAt);
    // Above its share: give the highest back for a newcomer to take.
    const above = mine.slice(share).map((d) => d._id);
    if (above.length > 0)
      await this.partitions.updateMany(
        { _id: { $in: above }, holder },
        { $set: { holder: null, expiresAt: 0 } },
      );
    for (let partition = 0; partition < this.count && held.length < share; partition++) {
      const doc = docs.get(partition);
      if (doc?.holder === holder) continue;
      const taken = doc
        ? await this.takeOver(doc, holder, now, expiresAt)
        : await this.create(partition, holder, expiresAt);
      if (taken) held.push(taken);
    }
    return held.sort((a, b) => a.partition - b.partition);
  }

  /**
   * Renews the claims on partitions read as this holder's, in one write; only when one was lost
   * meanwhile (its claim lapsed and another replica took it) a read says which are still held.
   */
  private async renew(holder: string, mine: PartitionDoc[], expiresAt: number): Promise<HeldPartition[]> {
    if (mine.length === 0) return [];
    const ids = mine.map((d) => d._id);
    const renewed = await this.partitions.updateMany({ _id: { $in: ids }, holder }, { $set: { expiresAt } });
    const kept =
      renewed.matched === ids.length
        ? mine
        : await this.partitions.find({ _id: { $in: ids }, holder }, { sort: { partition: 1 } });
    return kept.map((d) => ({ partition: d.partition, checkpoint: d.checkpoint }));
  }

  /** A free or lapsed partition, taken only if it is still as read (no other replica took it meanwhile). */
  private async takeOver(
    doc: PartitionDoc,
    holder: string,
    now: number,
    expiresAt: number,
  ): Promise<HeldPartition | null> {
    if (doc.holder !== null && doc.expiresAt > now) return null;
    const taken = await this.partitions.updateOne(
      { _id: doc._id, holder: doc.holder, expiresAt: doc.expiresAt },
      { $set: { holder, expiresAt } },
    );
    return taken.matched === 1 ? { partition: doc.partition, checkpoint: doc.checkpoint } : null;
  }

  /** A partition nobody initialized: it starts at -1 (the whole log), as a store without `initialize` would. */
  private async create(partition: number, holder: string, expiresAt: number): Promise<HeldPartition | null> {
    try {
      await this.partitions.insertOne(
        { _id: ReadStorePartitionClaims.id(partition), partition, holder, expiresAt, checkpoint: -1 },
        { idOnly: true },
      );
      return { partition, checkpoint: -1 };
    } catch (error) {
      if (error instanceof DuplicateKeyError) return null;
      throw error;
    }
  }

  async saveCheckpoint(holder: string, partition: number, position: number): Promise<boolean> {
    const saved = await this.partitions.updateOne(
      { _id: ReadStorePartitionClaims.id(partition), holder, expiresAt: { $gt: this.clock.now().getTime() } },
      { $max: { checkpoint: position } },
    );
    return saved.matched === 1;
  }

  /** One `updateMany`; only when a partition was lost a read says which were saved. */
  async saveCheckpoints(holder: string, partitions: readonly number[], position: number): Promise<number[]> {
    if (partitions.length === 0) return [];
    const held = {
      _id: { $in: partitions.map(ReadStorePartitionClaims.id) },
      holder,
      expiresAt: { $gt: this.clock.now().getTime() },
    };
    const saved = await this.partitions.updateMany(held, { $max: { checkpoint: position } });
    if (saved.matched === partitions.length) return [...partitions];
    // A partition lost now could not have been written: the holder filter is what it matched on.
    const still = new Set(
      (await this.partitions.find({ ...held, checkpoint: { $gte: position } })).map((d) => d.partition),
    );
    return partitions.filter((p) => still.has(p));
  }

  async release(holder: string): Promise<void> {
    await this.partitions.updateMany({ holder }, { $set: { holder: null, expiresAt: 0 } });
    await this.replicas.deleteMany({ _id: holder });
  }
}
