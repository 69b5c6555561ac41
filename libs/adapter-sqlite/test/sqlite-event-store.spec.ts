import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { eventStoreContract } from '@analyst/testing';
import { SqliteCheckpointStore, SqliteEventStore } from '@analyst/adapter-sqlite';

function freshFile(): { filename: string; teardown: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'analyst-es-'));
  return {
    filename: join(dir, 'events.db'),
    teardown: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

eventStoreContract(
  'SQLite (file, WAL)',
  async () => {
    const { filename, teardown } = freshFile();
    return {
      store: new SqliteEventStore({ filename, synchronous: 'NORMAL' }),
      peer: () => new SqliteEventStore({ filename, synchronous: 'NORMAL' }),
      teardown,
    };
  },
  {
    emptyLog: async () => {
      const { filename, teardown } = freshFile();
      return { store: new SqliteEventStore({ filename, synchronous: 'NORMAL' }), teardown };
    },
  },
);

describe('SQLite team head', () => {
  it('is served by the team index, also on a file written before the index existed', async () => {
    const { filename, teardown } = freshFile();
    const old = new Database(filename);
    old.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, stream TEXT NOT NULL,
      revision INTEGER NOT NULL, id TEXT NOT NULL, type TEXT NOT NULL, schema_version INTEGER NOT NULL,
      data TEXT NOT NULL, metadata TEXT NOT NULL)`);
    const insert = old.prepare(
      `INSERT INTO events (stream, revision, id, type, schema_version, data, metadata) VALUES (?, 0, ?, 'E', 1, '{}', ?)`,
    );
    for (const [i, teamId] of ['tm_a', 'tm_b', 'tm_a', 'tm_b'].entries())
      insert.run(
        `s-${i}`,
        `e-${i}`,
        JSON.stringify({ correlationId: 'c', causationId: null, teamId, occurredAt: 'x' }),
      );
    old.close();
    const store = new SqliteEventStore({ filename, synchronous: 'NORMAL' });
    try {
      expect(await store.teamHeadPosition('tm_a')).toBe(3);
      expect(await store.teamHeadPosition('tm_b')).toBe(4);
      expect(await store.teamHeadPosition('tm_c')).toBe(-1);
      const plan = store.teamHeadPlan().filter((step) => step.includes('events'));
      expect(plan).toEqual([
        'SEARCH events USING COVERING INDEX events_team_position (<expr>=?)',
        'SEARCH events USING COVERING INDEX events_team_position (<expr>=?)',
      ]);
    } finally {
      await store.close();
      await teardown();
    }
  });
});

describe('SQLite stream read except some types', () => {
  it("never parses a skipped event's data: a row whose data is not JSON is read past", async () => {
    const { filename, teardown } = freshFile();
    const store = new SqliteEventStore({ filename, synchronous: 'NORMAL' });
    const metadata = { correlationId: 'c', causationId: null, teamId: 't', occurredAt: 'x' };
    const event = (id: string, type: string) => ({ id, type, schemaVersion: 1, data: { id }, metadata });
    try {
      await store.append(
        'post-1',
        [event('e0', 'Kept'), event('e1', 'Chunk'), event('e2', 'Kept')],
        'no_stream',
      );
      const raw = new Database(filename);
      raw.prepare(`UPDATE events SET data = 'not json' WHERE id = 'e1'`).run();
      raw.close();
      await expect(store.readStream('post-1')).rejects.toThrow(SyntaxError);
      const read = await store.readStreamExcept('post-1', ['Chunk']);
      expect(read.revision).toBe(2);
      expect(read.events.map((e) => e.data)).toEqual([{ id: 'e0' }, { id: 'e2' }]);
    } finally {
      await store.close();
      await teardown();
    }
  });
});

describe('SQLite event store shared by two processes', () => {
  it('delivers appends made through another handle on the same file when polling', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'analyst-es-shared-'));
    const file = join(dir, 'events.db');
    const reader = new SqliteEventStore({ filename: file, synchronous: 'NORMAL', pollIntervalMs: 20 });
    const writer = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
    const seen: string[] = [];
    const subscription = await reader.subscribeToAll(async (e) => void seen.push(e.type));
    await writer.append(
      'other-1',
      [
        {
          id: 'e1',
          type: 'FromElsewhere',
          schemaVersion: 1,
          data: {},
          metadata: {
            correlationId: 'c',
            causationId: null,
            teamId: null,
            occurredAt: '2026-01-01T00:00:00.000Z',
          },
        },
      ],
      'no_stream',
    );
    const deadline = Date.now() + 5000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await subscription.close();
    await reader.close();
    await writer.close();
    rmSync(dir, { recursive: true, force: true });
    expect(seen).toEqual(['FromElsewhere']);
  });
});

describe('SQLite checkpoint store', () => {
  it('starts at -1, never moves backwards, and keeps positions across handles on one file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'analyst-cp-'));
    const file = join(dir, 'checkpoints.db');
    const first = new SqliteCheckpointStore(file);
    expect(await first.load('relay')).toBe(-1);
    await first.save('relay', 7);
    await first.save('relay', 3);
    first.close();
    const second = new SqliteCheckpointStore(file);
    expect(await second.load('relay')).toBe(7);
    expect(await second.load('projections:ingest')).toBe(-1);
    second.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('SQLite event store pages', () => {
  it('hands the events of one live append to a page subscriber as one page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'analyst-es-pages-'));
    const store = new SqliteEventStore({ filename: join(dir, 'events.db'), synchronous: 'NORMAL' });
    const pages: string[][] = [];
    let caughtUp = false;
    const subscription = await store.subscribeToAllPages(
      async (page) => void pages.push(page.map((e) => e.type)),
      {
        onCaughtUp: () => (caughtUp = true),
      },
    );
    while (!caughtUp) await new Promise((r) => setTimeout(r, 5));
    const event = (type: string) => ({
      id: `id-${type}`,
      type,
      schemaVersion: 1,
      data: {},
      metadata: {
        correlationId: 'c',
        causationId: null,
        teamId: null,
        occurredAt: '2026-01-01T00:00:00.000Z',
      },
    });
    await store.append('analysis-1', [event('Created'), event('Completed')], 'no_stream');
    for (let i = 0; i < 200 && pages.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    await subscription.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    expect(pages).toEqual([['Created', 'Completed']]);
  });
});
