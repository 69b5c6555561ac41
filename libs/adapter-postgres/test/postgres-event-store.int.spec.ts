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
    it('is two scans of the team index, whatever the table size makes the planner prefer', async () => {
      const store = new PostgresEventStore({ connectionString: url });
      await store.teamHeadPosition('tm_plan'); // the schema and its index exist
      await store.close();
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        // A small table reads as cheap to scan; what is checked is that the index can serve both max().
        await client.query('SET enable_seqscan = off');
        const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${TEAM_HEAD_QUERY}`, ['tm_plan']);
        const lines = plan.rows.map((row) => row['QUERY PLAN']);
        const scans = lines.filter((line) =>
          /Index Only Scan Backward using analyst_events_team_position/.test(line),
        );
        expect(scans).toHaveLength(2);
        expect(lines.some((line) => /Seq Scan/.test(line))).toBe(false);
      } finally {
        await client.end();
      }
    });
  });
} else {
  describe('EventStore contract: PostgreSQL', () => {
    it.skip('skipped: no PostgreSQL (set POSTGRES_URL, e.g. deploy/local/with-stack.sh)', () => undefined);
  });
}
