import { eventStoreContract } from '@analyst/testing';
import { PostgresEventStore } from '@analyst/adapter-postgres';

// Against a real PostgreSQL: POSTGRES_URL (deploy/local/start.sh prints it); skipped without one.
const url = process.env.POSTGRES_URL;

if (url) {
  // Each test gets two clients of one database, as two replicas would; unique stream names keep
  // the tests apart in the shared table.
  eventStoreContract(`PostgreSQL at ${url}`, async () => ({
    store: new PostgresEventStore({ connectionString: url }),
    peer: () => new PostgresEventStore({ connectionString: url }),
  }));
} else {
  describe('EventStore contract: PostgreSQL', () => {
    it.skip('skipped: no PostgreSQL (set POSTGRES_URL, e.g. deploy/local/with-stack.sh)', () => undefined);
  });
}
