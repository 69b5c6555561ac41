import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { openEventStore, type EventStore } from '@analyst/platform';
import { withRetryingReads } from './retrying-log-reads';

/** The event logs a suite can run its services on. */
export type E2eStoreKind = 'postgres' | 'sqlite';

const TITLES: Record<E2eStoreKind, string> = { postgres: 'PostgreSQL', sqlite: 'SQLite' };

/** E2E_EVENTSTORE=sqlite or postgres pins the store; unset, PostgreSQL is used wherever POSTGRES_URL is. */
function pinned(): E2eStoreKind | null {
  const value = process.env.E2E_EVENTSTORE;
  if (!value) return null;
  if (value !== 'sqlite' && value !== 'postgres')
    throw new Error(`E2E_EVENTSTORE must be sqlite or postgres, not ${value}`);
  // Asked for by name, so a missing server is an error, not a silent fallback to SQLite.
  if (value === 'postgres' && !process.env.POSTGRES_URL)
    throw new Error('E2E_EVENTSTORE=postgres needs POSTGRES_URL (deploy/local/start.sh prints it)');
  return value;
}

/** The one store a suite runs on: PostgreSQL, a store that spans machines, when there is one. */
export function e2eStoreKind(): E2eStoreKind {
  return pinned() ?? (process.env.POSTGRES_URL ? 'postgres' : 'sqlite');
}

/** Every store available here (SQLite always, PostgreSQL with POSTGRES_URL), unless E2E_EVENTSTORE pins one. */
export function e2eStoreKinds(): E2eStoreKind[] {
  const only = pinned();
  if (only) return [only];
  return process.env.POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export function storeTitle(kind: E2eStoreKind): string {
  return TITLES[kind];
}

/** The SQLite log the services of one data dir share (ANALYST_EVENTSTORE). */
export function sqliteLocation(dataDir: string): string {
  return `sqlite:${join(dataDir, 'events.db')}`;
}

/**
 * A suite's event log: what its services are told (`location`, for ANALYST_EVENTSTORE) and the
 * test's own client of it, to read the facts the store decided. On PostgreSQL each suite gets a
 * database of its own, dropped by `dispose`, so suites and runs never share a log.
 */
export class E2eEventLog {
  private client: EventStore | null = null;

  private constructor(
    readonly kind: E2eStoreKind,
    readonly location: string,
    /** Set on PostgreSQL: the database `dispose` drops. */
    private readonly database: string | null,
  ) {}

  /** `suite` names the database (letters, digits, underscores), e.g. `replicas`. */
  static async create(kind: E2eStoreKind, suite: string, dataDir: string): Promise<E2eEventLog> {
    if (kind === 'sqlite') return new E2eEventLog(kind, sqliteLocation(dataDir), null);
    const server = process.env.POSTGRES_URL;
    if (!server) throw new Error('a PostgreSQL event log needs POSTGRES_URL');
    const database = `analyst_e2e_${suite}_${randomBytes(4).toString('hex')}`;
    await admin(server, `CREATE DATABASE ${database}`);
    const url = new URL(server);
    url.pathname = `/${database}`;
    return new E2eEventLog(kind, url.toString(), database);
  }

  /** How a log line names it. */
  describe(): string {
    return this.database ? `PostgreSQL database ${this.database}` : `SQLite log ${this.location.slice(7)}`;
  }

  /**
   * The test's client, opened at first use: a SQLite file exists only once a service created it.
   * Used only to read (SQLite opens it read-only; nothing enforces that on PostgreSQL); a read that
   * lost its connection is asked again (see retrying-log-reads.ts).
   */
  get store(): EventStore {
    this.client ??= withRetryingReads(
      this.kind === 'postgres'
        ? openEventStore({ kind: 'postgres', connectionString: this.location })
        : openEventStore({ kind: 'sqlite', filename: this.location.slice(7), access: 'read-only' }),
    );
    return this.client;
  }

  /** Closes the test's client and drops the suite's database (any service still connected is cut off). */
  async dispose(): Promise<void> {
    await this.client?.close();
    this.client = null;
    if (this.database)
      await admin(process.env.POSTGRES_URL!, `DROP DATABASE IF EXISTS ${this.database} WITH (FORCE)`);
  }
}

/** CREATE and DROP DATABASE cannot run in a transaction, so one statement on a connection of its own. */
async function admin(server: string, statement: string): Promise<void> {
  const client = new Client({ connectionString: server, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
