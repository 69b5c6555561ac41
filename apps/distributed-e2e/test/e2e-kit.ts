import { randomBytes } from 'node:crypto';
import { classifyLink } from '@analyst/links';
import { simulatedCommentCount } from '@analyst/provider-sim';

/** Tags this test file's links, so runs sharing a log or a database never meet each other's posts. */
const RUN_TAG = randomBytes(4).toString('hex').slice(0, 6);

/**
 * `count` YouTube links unique to this run and `prefix` whose simulated comment section is not
 * empty, so each completed post is charged exactly one credit (an empty one would be refunded).
 */
export function chargeableLinks(prefix: string, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const link = `https://www.youtube.com/watch?v=${RUN_TAG}${prefix}${String(i).padStart(4, '0')}`;
    if ((simulatedCommentCount(link) ?? 0) > 0) out.push(link);
  }
  return out;
}

/** A link as the content routes store it (the dedupe key). */
export function normalized(link: string): string {
  const classified = classifyLink(link);
  return classified.ok ? classified.normalized : link;
}

export interface Reply<T = any> {
  status: number;
  /** Null when the request never got an answer (`networkErrorsAsStatus0`). */
  headers: Headers | null;
  body: T;
  ms: number;
}

export interface RequestOptions {
  authorization?: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Answer a refused or dropped connection as status 0 (a fault test watching a process die), instead of throwing. */
  networkErrorsAsStatus0?: boolean;
}

/** One HTTP request with a JSON body; the answer parsed as JSON where it is JSON, with its duration. */
export async function requestJson<T = any>(
  url: string,
  method: string,
  options: RequestOptions = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.authorization) headers.authorization = `Bearer ${options.authorization}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const started = Date.now();
  try {
    const response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      ...(options.timeoutMs ? { signal: AbortSignal.timeout(options.timeoutMs) } : {}),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // keep the text
    }
    return { status: response.status, headers: response.headers, body: body as T, ms: Date.now() - started };
  } catch (error) {
    if (!options.networkErrorsAsStatus0) throw error;
    return { status: 0, headers: null, body: String(error) as T, ms: Date.now() - started };
  }
}

/** Polls until `accept` holds; never throws on timeout, so a scenario can still report what it saw. */
export async function waitFor<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs: number,
  stepMs: number,
): Promise<{ value: T; ok: boolean; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (accept(value)) return { value, ok: true, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) return { value, ok: false, ms: Date.now() - started };
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export interface NewTeam {
  id: string;
  key: string;
  adhoc: number;
}

/**
 * A Scale team through the admin API: a key for the content routes, limits raised above what
 * polling jobs for minutes would trip (content_jobs allows 60 a minute), and `adhoc` credits.
 */
export async function createTeam(
  admin: (method: string, path: string, body: unknown) => Promise<Reply>,
  team: { name: string; keyName: string; adhoc: number; reason: string; scopes?: string[] },
): Promise<NewTeam> {
  const created = await admin('POST', '/admin/v1/teams', { name: team.name, plan: 'scale' });
  expect(created.status).toBe(201);
  const id: string = created.body.data.id;
  const key = await admin('POST', `/admin/v1/teams/${id}/keys`, {
    name: team.keyName,
    scopes: team.scopes ?? ['posts:read', 'posts:write', 'team:read'],
  });
  expect(key.status).toBe(201);
  const limits = await admin('PUT', `/admin/v1/teams/${id}/limits`, {
    limits: {
      global: { perMinute: 5_000 },
      content_jobs: { perMinute: 5_000 },
      content_add_posts: { perMinute: 100 },
    },
  });
  expect(limits.status).toBe(200);
  const grant = await admin('POST', `/admin/v1/teams/${id}/credits`, {
    pool: 'adhoc',
    amount: team.adhoc,
    reason: team.reason,
  });
  expect(grant.status).toBe(201);
  expect(grant.body.data.balances.adhoc).toBe(team.adhoc);
  return { id, key: key.body.data.key, adhoc: team.adhoc };
}
