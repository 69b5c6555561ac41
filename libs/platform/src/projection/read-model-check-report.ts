// What `read-models check` reports: each shared collection's counts, its lagging and differing documents.

export interface EventRef {
  streamId: string;
  revision: number;
  position: number;
  type: string;
  id: string;
}

export interface DocumentRef {
  collection: string;
  documentId: string;
  teamId: string | null;
}

/**
 * A document that had not reached the check's replay when last read: `behind` has events to apply
 * (none of them at or below a checkpoint of the services that write it), `ahead` applied events the
 * check's last replay had not read (written while it ran).
 */
export interface DocumentLag extends DocumentRef {
  state: 'behind' | 'ahead';
  /** Events it has still to apply (behind); 0 when ahead. */
  events: number;
  firstPending: EventRef | null;
}

/** A document that disagrees with the log: never lag. */
export interface DocumentDifference extends DocumentRef {
  /**
   * `differs`: same events applied, different content; `skipped`: a checkpoint passed an event it
   * never applied; `unexpected`: the log makes no such document.
   */
  kind: 'differs' | 'skipped' | 'unexpected';
  message: string;
  events: EventRef[];
}

export interface CollectionCheck {
  collection: string;
  /** Services that project it (their replicas all write it). */
  services: string[];
  /** Documents the log makes, and documents the live store holds. */
  expected: number;
  live: number;
  /** Highest checkpoint among those services (-1 for none). */
  checkpoint: number;
  lagging: number;
  differing: number;
}

export interface ReadModelCheckReport {
  /** Log position the check's replay ended at. */
  head: number;
  collections: CollectionCheck[];
  lag: DocumentLag[];
  differences: DocumentDifference[];
  ok: boolean;
}
