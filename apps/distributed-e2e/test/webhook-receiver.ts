import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got, as it came (the raw body is what the signature covers). */
export interface ReceivedWebhook {
  path: string;
  /** The body's `id` (`evt_…`), or '' when the body is not a webhook event. */
  eventId: string;
  type: string;
  teamId: string;
  data: Record<string, unknown>;
  raw: Buffer;
  signature: string;
  /** `analyst-webhook-attempt`, as sent. */
  attempt: string;
  /** The sender's port on 127.0.0.1: which process sent it, while its connection is open (`senderPid`). */
  remotePort: number;
  at: number;
  /** What the receiver did with it. */
  answered: number | 'held';
  /** The process that sent it, when the test asked for senders (`trackSenders`). */
  senderPid: number | null;
}

/** How the receiver answers one request: a status, or hold it unanswered until the sender goes away. */
export type Answer = number | 'hold';

/** Decides the answer to a request of `path` for an event already received `seen` times before (0 the first time). */
export type Behaviour = (seen: number, request: ReceivedWebhook) => Answer;

/**
 * A webhook receiver on 127.0.0.1: records every request with its raw body and answers each path as
 * the test says (200 unless told otherwise). `stop` closes the port (connections are then refused)
 * and `start` opens the same port again, as a receiver that was down for a while and came back.
 */
export class WebhookReceiver {
  readonly requests: ReceivedWebhook[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly held = new Set<ServerResponse>();
  private server: Server | null = null;
  private senderPids: () => number[] = () => [];
  port = 0;

  /** Listens on a port the OS picks (the first time) or on the same port again. */
  async start(): Promise<void> {
    const server = createServer((req, res) => this.handle(req, res));
    server.keepAliveTimeout = 1_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the port: from now on a connection is refused. Held requests are dropped. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const res of this.held) res.destroy();
    this.held.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  behave(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  /** Finds the sending process of each request among these pids (Linux /proc), while its connection is open. */
  trackSenders(pids: () => number[]): void {
    this.senderPids = pids;
  }

  at(path: string): ReceivedWebhook[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** How many requests each event id got at `path`. */
  countsAt(path: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of this.at(path)) counts.set(r.eventId, (counts.get(r.eventId) ?? 0) + 1);
    return counts;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: { id?: string; type?: string; teamId?: string; data?: Record<string, unknown> } = {};
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        // recorded with an empty id: a test asserting ids sees it
      }
      const path = (req.url ?? '/').split('?')[0];
      const request: ReceivedWebhook = {
        path,
        eventId: body.id ?? '',
        type: body.type ?? '',
        teamId: body.teamId ?? '',
        data: body.data ?? {},
        raw,
        signature: String(req.headers['analyst-signature'] ?? ''),
        attempt: String(req.headers['analyst-webhook-attempt'] ?? ''),
        remotePort: req.socket.remotePort ?? 0,
        at: Date.now(),
        answered: 200,
        senderPid: null,
      };
      const candidates = this.senderPids();
      if (candidates.length > 0) request.senderPid = senderPid(request.remotePort, this.port, candidates);
      const seen = this.requests.filter((r) => r.path === path && r.eventId === request.eventId).length;
      const answer = (this.behaviours.get(path) ?? (() => 200))(seen, request);
      this.requests.push(request);
      if (answer === 'hold') {
        request.answered = 'held';
        this.held.add(res);
        res.once('close', () => this.held.delete(res));
        return;
      }
      request.answered = answer;
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'not now');
    });
  }
}

/**
 * The pid among `pids` that owns the TCP connection from 127.0.0.1:`remotePort` to our `localPort`:
 * the socket's inode from /proc/net/tcp(6), then the process whose fd points at it. Null when none
 * (another OS, or the connection already gone).
 */
export function senderPid(remotePort: number, localPort: number, pids: number[]): number | null {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  let inode: string | null = null;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      if (fields[1].endsWith(`:${hex(remotePort)}`) && fields[2].endsWith(`:${hex(localPort)}`))
        inode = fields[9];
    }
  }
  if (!inode) return null;
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return null;
}
