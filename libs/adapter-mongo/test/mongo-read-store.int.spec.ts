import { MongoReadStore } from '@analyst/adapter-mongo';
import { readStoreContract } from '@analyst/testing';

const url = process.env.MONGO_URL;

if (url) {
  readStoreContract(`MongoDB protocol at ${url}`, async () => ({
    store: await MongoReadStore.connect(url, 'analyst_contract'),
  }));
  readStoreContract(`MongoDB protocol at ${url}, conditional writes checked client-side`, async () => ({
    store: await MongoReadStore.connect(url, 'analyst_contract', 'client'),
  }));
} else {
  describe('ReadStore contract: MongoDB', () => {
    it.skip('skipped: no MONGO_URL (start deploy/local/start.sh or run npm run test:integration)', () =>
      undefined);
  });
}
