import type { ConditionalWrites } from '@analyst/adapter-mongo';

/**
 * Where the event log lives, as a value: each kind names the one adapter that opens it, so opening
 * a store is a switch over `kind`, checked by the compiler, never a lookup by class name.
 */
export type EventStoreLocation =
  | {
      kind: 'eventstoredb';
      /** e.g. `esdb://host:2113?tls=true`; may carry credentials (see describeEventStore). */
      connectionString: string;
      /** PEM of the CA that signed the server certificates (EVENTSTORE_CA_FILE). */
      caFile?: string;
    }
  | {
      /** The PostgreSQL adapter; an operator's read-only use (the audit) only reads, nothing enforces it. */
      kind: 'postgres';
      /** e.g. `postgres://user@host:5432/analyst`; may carry a password (see describeEventStore). */
      connectionString: string;
    }
  | {
      kind: 'sqlite';
      filename: string;
      /** `read-only` refuses writes and needs the file to exist: the audit reads a live server's log. */
      access: 'read-write' | 'read-only';
      /** Set when other processes append to the same file: their appends cannot wake this one. */
      pollIntervalMs?: number;
    };

/** Where the read models live. */
export type ReadStoreLocation =
  | { kind: 'memory' }
  | {
      kind: 'mongodb';
      url: string;
      database: string;
      conditionalWrites: ConditionalWrites;
      /** PEM of the CA that signed the servers' certificates; turns TLS on (MONGO_CA_FILE). */
      caFile?: string;
    };

/** Hides the password of a `scheme://user:password@host` connection string for logs and reports. */
export function withoutPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]+):[^@/]*@/i, '$1:***@');
}

/** How a report names the event log it read. */
export function describeEventStore(location: EventStoreLocation): string {
  switch (location.kind) {
    case 'eventstoredb':
      return `EventStoreDB at ${withoutPassword(location.connectionString)}`;
    case 'postgres':
      return `PostgreSQL at ${withoutPassword(location.connectionString)}`;
    case 'sqlite':
      return `SQLite log ${location.filename}${location.access === 'read-only' ? ' (read-only)' : ''}`;
  }
}

/** How a report names the read store it read. */
export function describeReadStore(location: ReadStoreLocation): string {
  switch (location.kind) {
    case 'memory':
      return 'in memory';
    case 'mongodb':
      return `MongoDB database ${location.database} at ${withoutPassword(location.url)}`;
  }
}
