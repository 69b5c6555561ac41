import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { eventStoreContract } from '@analyst/testing';
import { PostgresEventStore, TEAM_HEAD_QUERY } from '@analyst/adapter-postgres';

// Against a real PostgreSQL: POSTGRES_URL (deploy/local/start.sh prints it); skipped without one.
const url = process.env.POSTGRES_URL;

/** A schema of its own, named first on the search path of every connection of `url` + this. */
async function freshSchema(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `contract_${randomUUID().replace(/-/g, '')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const separator = base.includes('?') ? '&' : '?';
  return {
    url: `${base}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: async () => {
      const client = new Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

if (url) {
  // Each test gets two clients of one database, as two replicas would; unique stream names keep
  // the tests apart in the shared table.
  eventStoreContract(
    `PostgreSQL at ${url}`,
    async () => ({
      store: new PostgresEventStore({ connectionString: url }),
      peer: () => new PostgresEventStore({ connectionString: url }),
    }),
    {
      emptyLog: async () => {
        const schema = await freshSchema(url);
        return { store: new PostgresEventStore({ connectionString: schema.url }), teardown: schema.drop };
      },
    },
  );

  describe('PostgreSQL team head', () => {
    it('is served by the team index for a quiet team and for one whose burst ends the log', async () => {
      const schema = await freshSchema(url);
      const store = new PostgresEventStore({ connectionString: schema.url });
      const client = new Client({ connectionString: schema.url });
      try {
        await store.teamHeadPosition('tm_0'); // creates the table and its index
        await client.connect();
        // 20,000 events of 20 teams with a system event now and then, then one team's burst of
        // 20,000: the planner's statistics of a real log, not of a table it would rather scan.
        await client.query(`INSERT INTO analyst_events (stream, revision, id, type, schema_version, data, metadata)
          SELECT 's-' || g, 0, 'e-' || g, 'E', 1, '{}',
            json_build_object('teamId', CASE WHEN g > 20000 THEN 'tm_burst' WHEN g % 997 = 0 THEN NULL ELSE 'tm_' || (g % 20) END)
          FROM generate_series(1, 40000) g`);
        await client.query('ANALYZE analyst_events');
        expect(await store.teamHeadPosition('tm_3')).toBe(19983); // the last system event is 19,940
        expect(await store.teamHeadPosition('tm_burst')).toBe(40000);
        const scansOf = async (team: string) => {
          const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${TEAM_HEAD_QUERY}`, [team]);
          return plan.rows.map((row) => row['QUERY PLAN']).filter((line) => / Scan /.test(line));
        };
        // A quiet team behind a neighbour's burst: both max() are read from the team index's ends.
        const quiet = await scansOf('tm_3');
        expect(quiet).toHaveLength(2);
        for (const scan of quiet)
          expect(scan).toMatch(/Index (Only )?Scan (Backward )?using analyst_events_team_position/);
        // The team whose burst ends the log: the planner may walk the primary key back from the end
        // (its first row is the answer); an index either way, never the table.
        const burst = await scansOf('tm_burst');
        expect(burst).toHaveLength(2);
        for (const scan of burst)
          expect(scan).toMatch(/Index (Only )?Scan (Backward )?using analyst_events_/);
      } finally {
        await client.end();
        await store.close();
        await schema.drop();
      }
    });
  });
} else {
  describe('EventStore contract: PostgreSQL', () => {
    it.skip('skipped: no PostgreSQL (set POSTGRES_URL, e.g. deploy/local/with-stack.sh)', () => undefined);
  });
}
