/** A thin HTTP client of `/admin/v1` for the CLI: the envelope's message becomes the thrown error. */
export interface AdminConnection {
  url: string;
  token?: string;
}

export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8080';

export async function adminCall<T = unknown>(
  connection: AdminConnection,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  fetchImpl: typeof fetch = fetch,
): Promise<T> {
  if (!connection.token) throw new Error('no admin token: pass --token or set ANALYST_ADMIN_TOKEN');
  const url = `${connection.url.replace(/\/+$/, '')}${path}`;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method,
      headers: { authorization: `Bearer ${connection.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new Error(`cannot reach ${url}: ${(error as Error).message}`);
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text for the message
  }
  if (!response.ok) {
    const message = (parsed as { error?: { message?: string } } | null)?.error?.message ?? text;
    throw new Error(`${method} ${path} failed with ${response.status}: ${message}`);
  }
  return parsed as T;
}
