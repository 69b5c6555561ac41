import { InProcessBus, MemoryReadStore } from '@analyst/platform';
import { messageBusContract, readStoreContract } from '@analyst/testing';

// The SQLite event store's contract run moved to libs/adapter-sqlite/test (issue 19).
messageBusContract('in-process', async () => ({ bus: new InProcessBus({ retryDelayMs: 5 }) }));

messageBusContract('in-process, every message delivered twice', async () => ({
  bus: new InProcessBus({ retryDelayMs: 5, duplicateDelivery: true }),
  duplicates: true,
}));

readStoreContract('in-memory (mingo)', async () => ({ store: new MemoryReadStore() }));
