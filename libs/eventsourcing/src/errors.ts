import type { ExpectedRevision } from './event-store.port';

/** The stream moved on since the caller read it; reload and decide again. */
export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)} but found ${String(actual)}`);
  }
}
