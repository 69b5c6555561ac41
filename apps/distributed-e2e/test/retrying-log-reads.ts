import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore, RecordedEvent } from '@analyst/platform';

const ATTEMPTS = 6;

/**
 * A connection the test's own client could not get or lost (PostgreSQL's "connection terminated due
 * to connection timeout" beside CPU hogs): the read is asked again. The services' behaviour is what
 * the suites judge; a slow test-side connection is not a finding.
 */
export function isTransientConnectionError(error: unknown): boolean {
  const text =
    error instanceof Error ? `${error.message} ${(error as { code?: string }).code ?? ''}` : String(error);
  return /connection terminated|connection timeout|timeout exceeded when trying to connect|ECONNRESET|ECONNREFUSED|EPIPE|57P01/i.test(
    text,
  );
}

async function retrying<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= ATTEMPTS || !isTransientConnectionError(error)) throw error;
      await sleep(500 * attempt);
    }
  }
}

/** Pages from `afterPosition`; a page that failed on a lost connection is read again from the last position yielded. */
async function* readAllRetrying(
  store: EventStore,
  afterPosition?: number,
  pageSize?: number,
): AsyncGenerator<RecordedEvent[]> {
  let after = afterPosition;
  let failures = 0;
  for (;;) {
    try {
      for await (const page of store.readAll(after, pageSize)) {
        failures = 0;
        if (page.length > 0) after = page[page.length - 1].position;
        yield page;
      }
      return;
    } catch (error) {
      if (++failures >= ATTEMPTS || !isTransientConnectionError(error)) throw error;
      await sleep(500 * failures);
    }
  }
}

/** The test's reads of the log, each asked again after a transient connection failure. Writes are not wrapped. */
export function withRetryingReads(store: EventStore): EventStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      switch (property) {
        case 'readStream':
          return (streamId: string, fromRevision?: number) =>
            retrying(() => target.readStream(streamId, fromRevision));
        case 'readStreamExcept':
          return (streamId: string, skipTypes: readonly string[], fromRevision?: number) =>
            retrying(() => target.readStreamExcept(streamId, skipTypes, fromRevision));
        case 'readAll':
          return (afterPosition?: number, pageSize?: number) =>
            readAllRetrying(target, afterPosition, pageSize);
        case 'headPosition':
          return () => retrying(() => target.headPosition());
        case 'teamHeadPosition':
          return (teamId: string) => retrying(() => target.teamHeadPosition(teamId));
        default: {
          const value: unknown = Reflect.get(target, property, receiver);
          return typeof value === 'function'
            ? (value as (...args: unknown[]) => unknown).bind(target)
            : value;
        }
      }
    },
  });
}
