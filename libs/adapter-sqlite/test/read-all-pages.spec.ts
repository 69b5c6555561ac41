import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../src';

describe('readAll pages', () => {
  it('bounds a page by bytes of event data as well as by count, and reads every event once, in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'analyst-pages-'));
    const store = new SqliteEventStore({ filename: join(dir, 'events.db') });
    try {
      const big = 'x'.repeat(1024 * 1024); // 1 MiB of data per event: 8 make a page
      for (let i = 0; i < 20; i++)
        await store.append(
          `s-${i}`,
          [
            {
              id: `e${i}`,
              type: 'Big',
              schemaVersion: 1,
              data: { i, big },
              metadata: {
                correlationId: 'c',
                causationId: null,
                teamId: null,
                occurredAt: new Date(0).toISOString(),
              },
            },
          ],
          'no_stream',
        );
      const sizes: number[] = [];
      const seen: number[] = [];
      for await (const page of store.readAll(-1)) {
        sizes.push(page.length);
        for (const e of page) seen.push((e.data as { i: number }).i);
      }
      expect(sizes).toEqual([8, 8, 4]);
      expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i));
      const small: number[] = [];
      for await (const page of store.readAll(-1, 6)) small.push(page.length);
      expect(small).toEqual([6, 6, 6, 2]);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
