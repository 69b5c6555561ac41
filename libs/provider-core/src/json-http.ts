import { ProviderFault } from './provider-fault';

export interface JsonResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null when the body was empty or not JSON. */
  body: unknown;
}

export interface JsonRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/**
 * One HTTP exchange through Node's fetch (undici). Network errors and timeouts become `transient`
 * faults; every status is returned as is, so each adapter maps the platform's own error format.
 */
export async function requestJson(url: string, request: JsonRequest): Promise<JsonResponse> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (error) {
    const name = (error as Error).name;
    const what =
      name === 'TimeoutError' || name === 'AbortError'
        ? `no answer within ${request.timeoutMs} ms`
        : `connection failed (${(error as Error).message})`;
    throw new ProviderFault('transient', `${request.method ?? 'GET'} ${new URL(url).pathname}: ${what}`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new ProviderFault(
      'transient',
      `${request.method ?? 'GET'} ${new URL(url).pathname}: body cut off (${(error as Error).message})`,
    );
  }
  let body: unknown = null;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  return { status: response.status, headers: response.headers, body };
}
