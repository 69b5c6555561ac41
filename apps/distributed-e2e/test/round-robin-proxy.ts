import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One forwarded request, for tests that must know which replica served it. */
export interface ProxiedRequest {
  method: string;
  url: string;
  target: string;
  /** Date.now() when the request was sent on to `target`. */
  at: number;
  /** The status `target` answered, or null while it is in flight or when the connection died. */
  status: number | null;
  /** pending while in flight; failed when `target` died mid-request (the client got 502). */
  outcome: 'pending' | 'answered' | 'failed';
  /** Targets skipped first because they refused the connection (a dead replica). */
  refused: string[];
}

/**
 * A small round-robin HTTP load balancer for tests: each request goes to the next target in turn.
 * A target that refuses the connection (a killed replica) is skipped for the next one, as a load
 * balancer's passive health check would; nothing was sent to it, so that is always safe. A target
 * that dies mid-request is not retried: the client gets 502, as it would from a real balancer.
 */
export class RoundRobinProxy {
  readonly log: ProxiedRequest[] = [];
  private next = 0;
  private pinned: string | null = null;
  private server: Server | null = null;
  private readonly sockets = new Set<import('node:net').Socket>();

  constructor(
    readonly name: string,
    private readonly targets: string[],
  ) {
    if (targets.length === 0) throw new Error(`${name}: no targets`);
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error(`${this.name} is not listening`);
    return `http://127.0.0.1:${address.port}`;
  }

  async listen(port: number): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Sends every request to `target` until unpinned (null), to address one replica through the balancer. */
  pin(target: string | null): void {
    if (target !== null && !this.targets.includes(target))
      throw new Error(`${this.name}: ${target} is not a target`);
    this.pinned = target;
  }

  /** The requests matching `method` and a path prefix, in the order they were forwarded. */
  requests(method: string, pathPrefix: string): ProxiedRequest[] {
    return this.log.filter((r) => r.method === method && r.url.startsWith(pathPrefix));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Buffered, so a refused connection can be re-sent to the next target (test bodies are small).
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const refused: string[] = [];
    const attempts = this.pinned ? 1 : this.targets.length;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const target = this.pinned ?? this.targets[this.next++ % this.targets.length];
      // Logged while in flight, so a test can see which replica holds a slow request.
      const entry: ProxiedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        target,
        at: Date.now(),
        status: null,
        outcome: 'pending',
        refused: [...refused],
      };
      this.log.push(entry);
      const outcome = await this.forward(target, req, body, res, entry);
      if (outcome === 'refused') {
        this.log.splice(this.log.indexOf(entry), 1);
        refused.push(target);
        continue;
      }
      return;
    }
    this.log.push({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      target: '',
      at: Date.now(),
      status: 503,
      outcome: 'failed',
      refused,
    });
    send(res, 503, `${this.name}: every target refused the connection (${refused.join(', ')})`);
  }

  private forward(
    target: string,
    req: IncomingMessage,
    body: Buffer,
    res: ServerResponse,
    entry: ProxiedRequest,
  ): Promise<'done' | 'refused'> {
    const url = new URL(target);
    return new Promise((resolve) => {
      const { host: _host, connection: _connection, 'content-length': _length, ...headers } = req.headers;
      const upstream = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.url,
          headers: { ...headers, host: url.host, 'content-length': String(body.length) },
        },
        (answer) => {
          entry.status = answer.statusCode ?? null;
          const { connection: _c, 'transfer-encoding': _t, ...rest } = answer.headers;
          res.writeHead(answer.statusCode ?? 502, rest);
          answer.pipe(res);
          answer.once('end', () => {
            entry.outcome = 'answered';
            resolve('done');
          });
          answer.once('error', () => {
            entry.outcome = 'failed';
            res.destroy();
            resolve('done');
          });
        },
      );
      upstream.once('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED') return resolve('refused');
        // The target died with the request in flight: the client sees a bad gateway.
        entry.outcome = 'failed';
        if (!res.headersSent)
          send(res, 502, `${this.name}: ${target} failed: ${error.code ?? error.message}`);
        else res.destroy();
        resolve('done');
      });
      upstream.end(body);
    });
  }
}

function send(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message } }));
}
