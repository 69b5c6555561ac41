/** A thin HTTP client of `/admin/v1` for the CLI: the envelope's message becomes the thrown error. */
export interface AdminConnection {
  url: string;
  token?: string;
}

export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8080';

/**
 * A failed admin call. `status` is the HTTP status (null when no response came back), `code` the
 * envelope's `error.code` or a CLI-side code (`no_admin_token`, `unreachable`).
 */
export class AdminApiError extends Error {
  override readonly name = 'AdminApiError';

  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string | null,
    readonly method: string,
    readonly path: string,
  ) {
    super(message);
  }
}

export interface AdminCallOptions {
  /** Extra request headers, e.g. `idempotency-key`. */
  headers?: Record<string, string>;
  fetchImpl?: typeof fetch;
}

export async function adminCall<T = unknown>(
  connection: AdminConnection,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  options: AdminCallOptions = {},
): Promise<T> {
  if (!connection.token)
    throw new AdminApiError(
      'no admin token: pass --token or set ANALYST_ADMIN_TOKEN',
      null,
      'no_admin_token',
      method,
      path,
    );
  const url = `${connection.url.replace(/\/+$/, '')}${path}`;
  const fetchImpl = options.fetchImpl ?? fetch;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method,
      headers: {
        authorization: `Bearer ${connection.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new AdminApiError(
      `cannot reach ${url}: ${(error as Error).message}`,
      null,
      'unreachable',
      method,
      path,
    );
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text for the message
  }
  if (!response.ok) {
    const envelope = (parsed as { error?: { message?: unknown; code?: unknown } } | null)?.error;
    const message = typeof envelope?.message === 'string' ? envelope.message : text;
    const code = typeof envelope?.code === 'string' ? envelope.code : null;
    throw new AdminApiError(
      `${method} ${path} failed with ${response.status}: ${message}`,
      response.status,
      code,
      method,
      path,
    );
  }
  return parsed as T;
}
