import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An embeddings endpoint of the common shape (POST `{ input: string[] }` → `{ data: [{ embedding,
 * index }] }`) that answers every batch after a delay, so an AI search job lasts long enough to kill
 * its replica in the middle of it. A text's vector counts its letters a–h: deterministic, and close
 * for texts with the same letters.
 */
export class FakeEmbeddings {
  calls = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(delayMs: number): Promise<FakeEmbeddings> {
    let fake: FakeEmbeddings | null = null;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (fake) fake.calls++;
        const input = (JSON.parse(body || '{}') as { input?: string[] }).input ?? [];
        const data = input.map((text, index) => ({ index, embedding: vectorOf(text) }));
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ data }));
        }, delayMs);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as AddressInfo;
    fake = new FakeEmbeddings(server, `http://127.0.0.1:${port}/v1/embeddings`);
    return fake;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function vectorOf(text: string): number[] {
  const v = new Array<number>(8).fill(0.01);
  for (const ch of text.toLowerCase()) {
    const i = ch.charCodeAt(0) - 97;
    if (i >= 0 && i < 8) v[i] += 1;
  }
  return v;
}
