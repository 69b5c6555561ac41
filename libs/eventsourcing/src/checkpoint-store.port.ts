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
