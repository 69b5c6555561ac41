import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that answers 204 and hands over each delivery as it came. */
export class LoopbackReceiver {
  private readonly received: ReceivedDelivery[] = [];
  private waiting: ((delivery: ReceivedDelivery) => void) | null = null;

  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(204).end();
      this.deliver({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    });
  });
  url = '';

  static async start(): Promise<LoopbackReceiver> {
    const receiver = new LoopbackReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  private deliver(delivery: ReceivedDelivery): void {
    if (this.waiting) {
      const wake = this.waiting;
      this.waiting = null;
      wake(delivery);
    } else this.received.push(delivery);
  }

  /** The next delivery, or an error after `timeoutMs`. */
  next(timeoutMs: number): Promise<ReceivedDelivery> {
    const ready = this.received.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no delivery within ${timeoutMs} ms`)), timeoutMs);
      this.waiting = (delivery) => {
        clearTimeout(timer);
        resolve(delivery);
      };
    });
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
