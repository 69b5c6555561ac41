import type { Clock } from '@analyst/eventsourcing';
import type { HeldPartition, PartitionClaims } from './partition-claims';

interface Claim {
  holder: string;
  expiresAt: number;
}

/** Partition claims shared by the replicas of one process (tests, the standalone app). */
export class InMemoryPartitionClaims implements PartitionClaims {
  private readonly heartbeats = new Map<string, number>();
  private readonly claims = new Map<number, Claim>();
  private readonly checkpoints = new Map<number, number>();

  constructor(
    readonly count: number,
    private readonly clock: Clock,
    /** How long a claim and a heartbeat last without a refresh. */
    readonly ttlMs = 10_000,
  ) {}

  async initialize(checkpoint: number): Promise<void> {
    for (let p = 0; p < this.count; p++) if (!this.checkpoints.has(p)) this.checkpoints.set(p, checkpoint);
  }

  async refresh(holder: string): Promise<HeldPartition[]> {
    const now = this.clock.now().getTime();
    this.heartbeats.set(holder, now + this.ttlMs);
    const live = [...this.heartbeats.values()].filter((expiresAt) => expiresAt > now).length;
    const share = Math.ceil(this.count / live);
    const held = [...this.claims.entries()]
      .filter(([, c]) => c.holder === holder && c.expiresAt > now)
      .map(([p]) => p)
      .sort((a, b) => a - b);
    // Above its share: give the highest back for a newcomer to take.
    for (const partition of held.splice(share)) this.claims.delete(partition);
    for (let p = 0; p < this.count && held.length < share; p++) {
      const claim = this.claims.get(p);
      if (!claim || claim.expiresAt <= now || claim.holder === holder) {
        if (!held.includes(p)) held.push(p);
      }
    }
    for (const partition of held) this.claims.set(partition, { holder, expiresAt: now + this.ttlMs });
    return held
      .sort((a, b) => a - b)
      .map((partition) => ({ partition, checkpoint: this.checkpoints.get(partition) ?? -1 }));
  }

  async saveCheckpoint(holder: string, partition: number, position: number): Promise<boolean> {
    const claim = this.claims.get(partition);
    if (!claim || claim.holder !== holder || claim.expiresAt <= this.clock.now().getTime()) return false;
    this.checkpoints.set(partition, Math.max(position, this.checkpoints.get(partition) ?? -1));
    return true;
  }

  async saveCheckpoints(holder: string, partitions: readonly number[], position: number): Promise<number[]> {
    const saved: number[] = [];
    for (const partition of partitions)
      if (await this.saveCheckpoint(holder, partition, position)) saved.push(partition);
    return saved;
  }

  async release(holder: string): Promise<void> {
    this.heartbeats.delete(holder);
    for (const [partition, claim] of this.claims) if (claim.holder === holder) this.claims.delete(partition);
  }
}
