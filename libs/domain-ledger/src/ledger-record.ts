/** A stored ledger event as the audit and the statement need it (a platform RecordedEvent fits). */
export interface LedgerRecord {
  id: string;
  streamId: string;
  revision: number;
  position: number;
  type: string;
  data: unknown;
  metadata: { occurredAt: string };
}
