import { randomUUID } from 'node:crypto';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { AnalystApiError } from './api-error';
import { streamEvents, type EventStreamOptions, type StreamedEvent } from './event-stream';
import type { paths } from './schema';

export { AnalystApiError };

export interface AnalystClientOptions {
  /** Where the API is, e.g. `http://127.0.0.1:8080` (the paths carry `/analyst/v1`). */
  baseUrl: string;
  /** `ak_<key_id>.<secret>`, sent as `Authorization: Bearer`. */
  apiKey: string;
  /** How many times a 429 or 503 is sent again, waiting what `Retry-After` says (default 3). */
  retries?: number;
  /** Longest wait honoured for one `Retry-After`, in ms (default 60,000); a longer one is returned as is. */
  maxRetryWaitMs?: number;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
  /** Waiting, replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
}

/** A page of a cursor-paged route, as every list route answers. */
interface Page<T> {
  data: T[];
  meta: { hasMore?: boolean; nextCursor?: string | null };
}

/** Terminal statuses of content jobs and analyses. */
const TERMINAL = new Set(['completed', 'partial', 'failed', 'ready']);

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds (or an HTTP date) of a `Retry-After` header, in ms; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * What every client of the API would otherwise write by hand, on top of the generated types:
 * - every POST carries an `Idempotency-Key` (a fresh one per call unless you pass your own), so a
 *   retried POST is answered with the first request's job instead of adding twice;
 * - a 429 or 503 is retried after the `Retry-After` it names, a bounded number of times;
 * - `pages()` walks a cursor-paged route; `waitFor()` polls a job or an analysis at `pollAfterMs`.
 */
export class AnalystClient {
  /** The typed routes (openapi-fetch): `api.GET('/analyst/v1/posts', { params: { query: { limit: 50 } } })`. */
  readonly api: Client<paths>;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: AnalystClientOptions) {
    this.sleep = options.sleep ?? realSleep;
    const baseFetch = options.fetch ?? fetch;
    const retries = options.retries ?? 3;
    const maxWait = options.maxRetryWaitMs ?? 60_000;
    const sleep = this.sleep;
    // Retries happen below openapi-fetch, on the finished Request, so every attempt sends the same body and key.
    const retryingFetch = async (input: Request): Promise<Response> => {
      for (let attempt = 0; ; attempt++) {
        const response = await baseFetch(input.clone());
        if ((response.status !== 429 && response.status !== 503) || attempt >= retries) return response;
        const wait = retryAfterMs(response.headers.get('retry-after')) ?? 1000 * 2 ** attempt;
        if (wait > maxWait) return response;
        await sleep(wait);
      }
    };
    this.api = createClient<paths>({ baseUrl: options.baseUrl, fetch: retryingFetch as never });
    this.api.use(this.headers());
  }

  private headers(): Middleware {
    const apiKey = this.options.apiKey;
    return {
      onRequest({ request }) {
        request.headers.set('authorization', `Bearer ${apiKey}`);
        if (request.method === 'POST' && !request.headers.has('idempotency-key'))
          request.headers.set('idempotency-key', randomUUID());
        return request;
      },
    };
  }

  /**
   * Every item of a cursor-paged route, page after page, with the same filters on each request (as the
   * API asks): `for await (const post of client.pages('/analyst/v1/posts', { status: 'all' }))`.
   */
  async *pages<T = Record<string, unknown>>(
    path:
      | '/analyst/v1/posts'
      | `/analyst/v1/collections/${string}/posts`
      | `/analyst/v1/analyses/${string}/comments`
      | `/analyst/v1/posts/${string}/analysis/comments`,
    query: Record<string, string | number> = {},
  ): AsyncGenerator<T> {
    let cursor: string | null = null;
    do {
      const entries: [string, string][] = Object.entries({ ...query, ...(cursor ? { cursor } : {}) }).map(
        ([k, v]) => [k, String(v)],
      );
      const params = new URLSearchParams(entries);
      const page = (await this.getJson(`${path}?${params}`)) as Page<T>;
      for (const item of page.data) yield item;
      cursor = page.meta.hasMore ? (page.meta.nextCursor ?? null) : null;
    } while (cursor);
  }

  /**
   * Polls a content job (`cj_…`) or an analysis until it is terminal, waiting the `pollAfterMs` each
   * answer names (5 s for jobs, 3 s for analyses by default); returns the last `data`.
   */
  async waitFor<T extends { id: string; status: string }>(
    resource: { id: string },
    timeoutMs = 10 * 60_000,
  ): Promise<T> {
    const path = resource.id.startsWith('cj_')
      ? `/analyst/v1/content/jobs/${resource.id}`
      : `/analyst/v1/analyses/${resource.id}`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const body = (await this.getJson(path)) as {
        data: T & { pollAfterMs?: number };
        meta?: { pollAfterMs?: number };
      };
      if (TERMINAL.has(body.data.status)) return body.data;
      if (Date.now() > deadline)
        throw new AnalystApiError(
          0,
          'timeout',
          `${resource.id} is still ${body.data.status} after ${timeoutMs} ms`,
        );
      await this.sleep(body.meta?.pollAfterMs ?? body.data.pollAfterMs ?? 3000);
    }
  }

  /**
   * The team's events as they happen (`GET /events`, server-sent events), resumed with
   * `Last-Event-ID` after a dropped connection:
   * `for await (const { id, event } of client.events({ types: ['analysis.ready'] })) ...`.
   * Keep the last `id` to resume a later stream with `lastEventId` (within the server's retention
   * window); stop with `signal` or `break`. Errors: `AnalystApiError` 410 `last_event_id_expired`,
   * 429 `too_many_streams` (with `retryAfterMs`), 400 for an unknown type, `connection_lost` once
   * `maxReconnects` connections in a row failed.
   */
  events(options: EventStreamOptions = {}): AsyncGenerator<StreamedEvent> {
    return streamEvents(
      {
        baseUrl: this.options.baseUrl,
        apiKey: this.options.apiKey,
        fetch: this.options.fetch ?? fetch,
        sleep: this.sleep,
        errorOf: errorOfResponse,
      },
      options,
    );
  }

  private async getJson(pathAndQuery: string): Promise<unknown> {
    // Through the same fetch as `api` (retries, key), for routes addressed by string.
    const { data, error, response } = await this.api.GET(pathAndQuery as never, {} as never);
    if (error !== undefined || !response.ok) {
      const e = (error as { error?: { message?: string; code?: string } } | undefined)?.error;
      throw new AnalystApiError(
        response.status,
        e?.code,
        e?.message ?? `GET ${pathAndQuery} answered ${response.status}`,
      );
    }
    return data;
  }
}

export function createAnalystClient(options: AnalystClientOptions): AnalystClient {
  return new AnalystClient(options);
}

/** The client's error for an answer in the spec's error envelope (or not JSON at all). */
async function errorOfResponse(response: Response, what: string): Promise<AnalystApiError> {
  const text = await response.text().catch(() => '');
  let body: { error?: { message?: string; code?: string } } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  return new AnalystApiError(
    response.status,
    body?.error?.code,
    body?.error?.message ?? `${what} answered ${response.status}`,
    retryAfterMs(response.headers.get('retry-after')),
  );
}
