import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { checkAddress, type WebhookNetworkPolicy } from './address-policy';
import {
  checkUrlShape,
  guardedLookup,
  systemResolveAll,
  WebhookAddressRefusedError,
  type ResolveAll,
} from './url-guard';
import { SIGNATURE_HEADER, signWebhook } from './webhook-signature';

/** A 2xx within this long is delivered; anything later is a failed attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** What is kept of a receiver's answer, for the delivery record. */
export const MAX_RESPONSE_BODY_BYTES = 1024;

export interface WebhookAttempt {
  url: string;
  /** The JSON body exactly as sent and signed. */
  body: string;
  /** The endpoint's active secrets (`activeSigningSecrets`), newest first. */
  secrets: readonly string[];
  /** Further headers, e.g. the event's id and type. */
  headers?: Record<string, string>;
}

export interface SendWebhookOptions {
  policy: WebhookNetworkPolicy;
  timeoutMs?: number;
  /** Wall clock for the signature's time, in ms (default Date.now). */
  now?: () => number;
  resolveAll?: ResolveAll;
}

/** Why an attempt failed: what a delivery's `lastAttempt.error.code` can say. */
export const ATTEMPT_ERROR_CODES = [
  'url_refused',
  'address_refused',
  'timeout',
  'redirect',
  'http_status',
  'connection_refused',
  'dns_failed',
  'tls_failed',
  'connection_failed',
] as const;
export type AttemptErrorCode = (typeof ATTEMPT_ERROR_CODES)[number];

export interface WebhookAttemptResult {
  outcome: 'delivered' | 'failed';
  /** The receiver's status code, when it answered. */
  status?: number;
  error?: { code: AttemptErrorCode; message: string };
  /** From the start of the attempt to its outcome (the answer read, cut at 1 KB, or the timeout). */
  latencyMs: number;
  /** The first 1 KB of the answer, as UTF-8. */
  body: string;
}

type Outcome = Omit<WebhookAttemptResult, 'latencyMs'>;

const failure = (code: AttemptErrorCode, message: string, status?: number, body = ''): Outcome => ({
  outcome: 'failed',
  ...(status === undefined ? {} : { status }),
  error: { code, message },
  body,
});

/** 2xx is delivered; a 3xx is a failure, never followed (it could lead anywhere, inside included). */
function outcomeOfStatus(status: number, location: string | undefined, body: string): Outcome {
  if (status >= 200 && status < 300) return { outcome: 'delivered', status, body };
  if (status >= 300 && status < 400)
    return failure('redirect', `redirect to ${location ?? '(no location)'} not followed`, status, body);
  return failure('http_status', `the receiver answered ${status}`, status, body);
}

function outcomeOfError(error: NodeJS.ErrnoException): Outcome {
  if (error instanceof WebhookAddressRefusedError) return failure('address_refused', error.message);
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return failure('connection_refused', error.message);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return failure('dns_failed', error.message);
  if (/CERT|TLS|SSL/.test(code)) return failure('tls_failed', error.message);
  return failure('connection_failed', error.message);
}

/**
 * One delivery attempt: a signed JSON POST through the URL guard (the URL's shape and an IP
 * literal checked here, a name's addresses by the guarded lookup at connect time), on a fresh
 * connection, no redirect followed, the whole attempt bounded by the timeout.
 */
export async function sendWebhookAttempt(
  attempt: WebhookAttempt,
  options: SendWebhookOptions,
): Promise<WebhookAttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const shape = checkUrlShape(attempt.url, options.policy);
  if (!shape.ok) return { ...failure('url_refused', shape.message), latencyMs: elapsed() };
  if (shape.literal) {
    const verdict = checkAddress(shape.hostname, options.policy, shape.protocol);
    if (!verdict.ok) return { ...failure('address_refused', verdict.reason), latencyMs: elapsed() };
  }
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const headers = {
    ...attempt.headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(attempt.body)),
    'user-agent': 'Analyst-Webhooks/1',
    [SIGNATURE_HEADER]: signWebhook(attempt.body, attempt.secrets, nowSeconds),
  };
  const client = shape.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let answered: { status: number; location: string | undefined } | null = null;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    const keptBody = () => Buffer.concat(kept).toString('utf8');
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    const finishAnswered = () =>
      answered && finish(outcomeOfStatus(answered.status, answered.location, keptBody()));
    const request = client.request(
      shape.url,
      {
        method: 'POST',
        headers,
        agent: false,
        lookup: guardedLookup(options.policy, shape.protocol, options.resolveAll ?? systemResolveAll),
      },
      (response) => {
        answered = { status: response.statusCode ?? 0, location: response.headers.location };
        response.on('data', (chunk: Buffer) => {
          const room = MAX_RESPONSE_BODY_BYTES - keptBytes;
          if (room > 0) {
            kept.push(chunk.subarray(0, room));
            keptBytes += Math.min(room, chunk.length);
          }
          if (keptBytes >= MAX_RESPONSE_BODY_BYTES) finishAnswered();
        });
        response.on('end', finishAnswered);
        // A receiver that closes mid-answer still answered: its status decides.
        response.on('error', finishAnswered);
      },
    );
    // Once the status is in, the timeout only cuts the body short: a 2xx in time is delivered.
    const timer = setTimeout(
      () =>
        answered
          ? finishAnswered()
          : finish(failure('timeout', `no answer within ${options.timeoutMs ?? DELIVERY_TIMEOUT_MS} ms`)),
      options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      answered ? finishAnswered() : finish(outcomeOfError(error)),
    );
    request.end(attempt.body);
  });
}
