import type { CheckpointStore } from '../projection/checkpoint-store';
import { type Clock, type Doc, DuplicateKeyError, type ReadStore } from '@analyst/eventsourcing';

/** One generation of the lease: created once by the replica that took it, renewed only by it. */
interface GenerationDoc extends Doc {
  _id: string;
  name: string;
  generation: number;
  holder: string;
  expiresAt: string;
  /** The relay checkpoint of this generation: where the next generation starts. */
  position: number;
}

const COLLECTION = 'relay_lease_generations';
const EPOCH = new Date(0).toISOString();

/**
 * A lease in the read store so that only one relay publishes at a time, with a fencing token.
 *
 * Each takeover inserts a new document `<name>@<generation>` with the next generation number. An
 * insert with a given `_id` succeeds for exactly one replica on every server (FerretDB included,
 * whose updates are read-then-write), so two standbys can never both win generation G. The holder
 * renews only its own generation's document and, before each publish batch, checks that the newest
 * generation is still its own: a paused holder that wakes up after a takeover sees G+1 and stops.
 *
 * The relay checkpoint lives in the generation document too (`checkpoints()`): a holder writes only
 * its own document, and a takeover copies the newest position into the next one. A stale holder can
 * therefore write nothing any later generation reads. Expiry is compared by the readers' clocks, not
 * by a TTL index (FerretDB has none).
 */
export class RelayLease {
  private held: { generation: number; expiresAt: number } | null = null;

  constructor(
    private readonly store: ReadStore,
    private readonly clock: Clock,
    private readonly holder: string,
    private readonly name = 'relay',
    readonly ttlMs = 6_000,
    /** Where checkpoints were kept before they moved into the lease: read once, at a takeover. */
    private readonly legacyCheckpoints?: CheckpointStore,
  ) {}

  /** The generation this replica holds (the fencing token), or null. */
  get generation(): number | null {
    return this.held?.generation ?? null;
  }

  private get docs() {
    return this.store.collection<GenerationDoc>(COLLECTION);
  }

  private id(generation: number): string {
    return `${this.name}@${generation}`;
  }

  /** The newest generation document, whoever holds it. */
  async current(): Promise<GenerationDoc | null> {
    return this.docs.findOne({ name: this.name }, { sort: { generation: -1 } });
  }

  /**
   * Renews the lease when this replica holds it, else takes it over when the newest generation has
   * lapsed. False when another replica holds a live one, or when this one lost it.
   */
  async tryAcquire(): Promise<boolean> {
    if (this.held && (await this.renew())) return true;
    return this.takeOver();
  }

  private async renew(): Promise<boolean> {
    const held = this.held!;
    const now = this.clock.now().getTime();
    // A holder that let its lease lapse (paused, partitioned) never resumes it: a standby may be
    // taking over right now. It competes for a new generation like anyone else.
    if (now >= held.expiresAt) {
      this.held = null;
      return false;
    }
    const expiresAt = now + this.ttlMs;
    const renewed = await this.docs.updateOne(
      { _id: this.id(held.generation), holder: this.holder },
      { $set: { expiresAt: new Date(expiresAt).toISOString() } },
    );
    if (renewed.matched === 1 && (await this.current())?.generation === held.generation) {
      held.expiresAt = expiresAt;
      return true;
    }
    this.held = null;
    return false;
  }

  private async takeOver(): Promise<boolean> {
    const now = this.clock.now();
    const latest = await this.current();
    if (latest && latest.expiresAt > now.toISOString()) return false;
    const generation = (latest?.generation ?? 0) + 1;
    const carried = Math.max(
      latest?.position ?? -1,
      latest ? -1 : ((await this.legacyCheckpoints?.load(this.name)) ?? -1),
    );
    const expiresAt = now.getTime() + this.ttlMs;
    try {
      await this.docs.insertOne({
        _id: this.id(generation),
        name: this.name,
        generation,
        holder: this.holder,
        expiresAt: new Date(expiresAt).toISOString(),
        position: carried,
      });
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false; // another standby won this generation
      throw error;
    }
    this.held = { generation, expiresAt };
    // Older generations are history now; the previous one stays for diagnosis.
    await this.docs.deleteMany({ name: this.name, generation: { $lt: generation - 1 } });
    return true;
  }

  /**
   * The fencing check before a publish batch or a checkpoint write: this replica's lease has not
   * lapsed by its own clock and no newer generation exists. One read; renewal stays with the timer.
   */
  async stillHeld(generation: number): Promise<boolean> {
    const held = this.held;
    if (!held || held.generation !== generation || this.clock.now().getTime() >= held.expiresAt) return false;
    if ((await this.current())?.generation === generation) return true;
    this.held = null;
    return false;
  }

  /**
   * Checkpoints of generation `generation`: load gives the position carried into it, save writes
   * only its own document (so a stale holder's save moves nothing a later generation reads).
   */
  checkpoints(generation: number): CheckpointStore {
    return {
      load: async () => (await this.docs.findOne({ _id: this.id(generation) }))?.position ?? -1,
      save: async (_name, position) => {
        await this.docs.updateOne({ _id: this.id(generation), holder: this.holder }, { $max: { position } });
      },
    };
  }

  /** Lets a standby take over at its next check; the generation number stays, so tokens keep rising. */
  async release(): Promise<void> {
    const held = this.held;
    this.held = null;
    if (!held) return;
    await this.docs.updateOne(
      { _id: this.id(held.generation), holder: this.holder },
      { $set: { expiresAt: EPOCH } },
    );
  }
}
