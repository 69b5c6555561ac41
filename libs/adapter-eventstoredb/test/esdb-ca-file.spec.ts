import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EsdbEventStore, withCaFile } from '@analyst/adapter-eventstoredb';

describe('EventStoreDB CA file (EVENTSTORE_CA_FILE)', () => {
  it('is added to the connection string as tlsCAFile, replacing one already there', () => {
    expect(withCaFile('esdb://a:2113,b:2113?tls=true', '/etc/ca dir/ca.pem')).toBe(
      'esdb://a:2113,b:2113?tls=true&tlsCAFile=%2Fetc%2Fca%20dir%2Fca.pem',
    );
    expect(withCaFile('esdb://a:2113', '/ca.pem')).toBe('esdb://a:2113?tlsCAFile=%2Fca.pem');
    expect(withCaFile('esdb://a:2113?tlsCAFile=/old.pem&tls=true', '/ca.pem')).toBe(
      'esdb://a:2113?tls=true&tlsCAFile=%2Fca.pem',
    );
    expect(withCaFile('esdb://a:2113?tls=true', undefined)).toBe('esdb://a:2113?tls=true');
  });

  it('reaches the client, which loads the file as its root certificate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'analyst-esdb-ca-'));
    try {
      // The client reads the file when it is built: a missing one fails there, a present one is taken.
      expect(
        () =>
          new EsdbEventStore({
            connectionString: 'esdb://127.0.0.1:1?tls=true',
            caFile: join(dir, 'missing.pem'),
          }),
      ).toThrow('Failed to load certificate file');
      writeFileSync(join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
      const store = new EsdbEventStore({
        connectionString: 'esdb://127.0.0.1:1?tls=true',
        caFile: join(dir, 'ca.pem'),
      });
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
