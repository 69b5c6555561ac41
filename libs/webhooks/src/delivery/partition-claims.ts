/** A partition a replica holds, and how far in the log its deliveries have been created. */
export interface HeldPartition {
  partition: number;
  /** The log position up to which every event's deliveries of this partition exist; -1 for none. */
  checkpoint: number;
}

/**
 * How notifier replicas share the delivery partitions, like the relay's lease but one lease per
 * partition: each replica heartbeats, takes free or lapsed partitions up to its fair share (the
 * count over the live replicas, rounded up) and gives back any above it, so a joining replica gets
 * its share within two refreshes and a dead one's partitions go to the others when its claims lapse.
 * Each partition keeps its own log checkpoint, carried from holder to holder.
 */
export interface PartitionClaims {
  readonly count: number;
  /**
   * Creates the partitions that do not exist yet with this checkpoint; existing ones keep theirs.
   * A first deployment passes the log's head: no endpoint is older than the routes, so the log
   * before it holds nothing to deliver.
   */
  initialize(checkpoint: number): Promise<void>;
  /** Heartbeats `holder`, renews its claims, takes or gives back partitions to its share; what it holds now. */
  refresh(holder: string): Promise<HeldPartition[]>;
  /** Moves a partition's checkpoint forward, only while `holder` holds it; false when it lost the partition. */
  saveCheckpoint(holder: string, partition: number, position: number): Promise<boolean>;
  /**
   * `saveCheckpoint` for several partitions in one step (one write on a remote store); the
   * partitions saved, in the order given: those `holder` lost are left out and keep theirs.
   */
  saveCheckpoints(holder: string, partitions: readonly number[], position: number): Promise<number[]>;
  /** Gives back every partition and the heartbeat, so the others take them at their next refresh. */
  release(holder: string): Promise<void>;
}

/** Enough partitions to spread endpoints over a few replicas evenly; a store fixes it once. */
export const DEFAULT_DELIVERY_PARTITIONS = 16;
