import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessBus, MemoryReadStore, SqliteEventStore } from '@analyst/platform';
import { eventStoreContract, messageBusContract, readStoreContract } from '@analyst/testing';

eventStoreContract('SQLite (file, WAL)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'analyst-es-'));
  return {
    store: new SqliteEventStore({ filename: join(dir, 'events.db'), synchronous: 'NORMAL' }),
    teardown: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

messageBusContract('in-process', async () => ({ bus: new InProcessBus({ retryDelayMs: 5 }) }));

messageBusContract('in-process, every message delivered twice', async () => ({
  bus: new InProcessBus({ retryDelayMs: 5, duplicateDelivery: true }),
  duplicates: true,
}));

readStoreContract('in-memory (mingo)', async () => ({ store: new MemoryReadStore() }));
