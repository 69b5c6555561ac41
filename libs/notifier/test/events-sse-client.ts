import { request, type IncomingMessage } from 'node:http';

/** One parsed frame of a server-sent event stream: an event, a comment, or a retry field. */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/** An open `GET /events` read frame by frame, as it arrives (nothing waits for the stream to end). */
export interface SseConnection {
  status: number;
  headers: IncomingMessage['headers'];
  /** The body when the answer is not a stream (an error envelope). */
  errorBody(): Promise<{ error: { message: string; code: string } }>;
  /** The next frame, or throws after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseFrame>;
  /** The next frame that is an event (heartbeats and retry skipped). */
  nextEvent(timeoutMs?: number): Promise<SseFrame>;
  /** Frames received so far and not yet taken. */
  pending(): SseFrame[];
  /** Resolves when the server ended the body. */
  ended: Promise<void>;
  close(): void;
}

function parseFrame(text: string): SseFrame {
  const frame: SseFrame = {};
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    else {
      const colon = line.indexOf(':');
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id' || field === 'event' || field === 'data' || field === 'retry') frame[field] = value;
    }
  }
  return frame;
}

/**
 * Opens a stream at `url` (e.g. http://127.0.0.1:port/analyst/v1/events) with these headers; fails
 * when the answer's head has not come within `timeoutMs` (a proxy that buffers never sends it).
 */
export function openSse(
  url: string,
  headers: Record<string, string>,
  timeoutMs = 5000,
): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { accept: 'text/event-stream', ...headers } });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer head within ${timeoutMs} ms from ${url}`));
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      const frames: SseFrame[] = [];
      const waiters: (() => void)[] = [];
      let buffer = '';
      let raw = '';
      let endedResolve: () => void = () => undefined;
      const ended = new Promise<void>((r) => (endedResolve = r));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          frames.push(parseFrame(buffer.slice(0, cut)));
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf('\n\n');
        }
        waiters.splice(0).forEach((wake) => wake());
      });
      res.on('close', () => {
        endedResolve();
        waiters.splice(0).forEach((wake) => wake());
      });
      res.on('error', () => undefined);
      let closed = false;
      res.on('close', () => (closed = true));
      const next = async (timeoutMs = 5000): Promise<SseFrame> => {
        const deadline = Date.now() + timeoutMs;
        while (frames.length === 0) {
          if (closed) throw new Error('the stream ended before the next frame');
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`no frame within ${timeoutMs} ms`);
          await new Promise<void>((wake) => {
            const timer = setTimeout(wake, left);
            waiters.push(() => {
              clearTimeout(timer);
              wake();
            });
          });
        }
        return frames.shift()!;
      };
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        errorBody: async () => {
          await ended;
          return JSON.parse(raw) as { error: { message: string; code: string } };
        },
        next,
        nextEvent: async (timeoutMs = 5000) => {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const frame = await next(Math.max(1, deadline - Date.now()));
            if (frame.event !== undefined) return frame;
          }
        },
        pending: () => frames.slice(),
        ended,
        close: () => {
          req.destroy();
          res.destroy();
        },
      });
    });
    req.end();
  });
}
