import type { Registry } from 'prom-client';
import { ApiError } from '@analyst/contracts';
import { gaugeOn } from '@analyst/platform';

/** Open streams a key may hold at once when ANALYST_EVENTS_MAX_STREAMS_PER_KEY is unset. */
export const DEFAULT_MAX_STREAMS_PER_KEY = 5;
/** Seconds a refused stream is told to wait: a stream frees its place only when it is closed. */
export const TOO_MANY_STREAMS_RETRY_AFTER_SECONDS = 30;

/** ANALYST_EVENTS_MAX_STREAMS_PER_KEY, or why it is not a whole number from 1 to 1,000. */
function readMaxStreamsPerKey(env: NodeJS.ProcessEnv): number | string {
  const text = env.ANALYST_EVENTS_MAX_STREAMS_PER_KEY;
  if (text === undefined || text.trim() === '') return DEFAULT_MAX_STREAMS_PER_KEY;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 1000)
    return `ANALYST_EVENTS_MAX_STREAMS_PER_KEY: must be a whole number from 1 to 1000 (open event streams per API key), is "${text}"`;
  return value;
}

/** The variable's problem, for the gateway app's exit 2 with the other configuration problems. */
export function maxStreamsPerKeyProblems(env: NodeJS.ProcessEnv): string[] {
  const read = readMaxStreamsPerKey(env);
  return typeof read === 'string' ? [read] : [];
}

/** ANALYST_EVENTS_MAX_STREAMS_PER_KEY (default 5); throws at start on a value out of range. */
export function maxStreamsPerKeyFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const read = readMaxStreamsPerKey(env);
  if (typeof read === 'string') throw new Error(read);
  return read;
}

function tooManyStreams(cap: number): ApiError {
  return new ApiError(
    429,
    `this API key already holds ${cap} open event streams (the most it may hold at once); close one, or retry in ${TOO_MANY_STREAMS_RETRY_AFTER_SECONDS} s`,
    'too_many_streams',
    undefined,
    { 'Retry-After': String(TOO_MANY_STREAMS_RETRY_AFTER_SECONDS) },
  );
}

/**
 * The open event streams of each key on this gateway (one process): a stream holds its place from
 * admission until its response closes, whichever way (ended, the client gone, shutdown). Counted
 * per gateway replica, not in the shared rate counters: a place must be given back by a replica
 * that is killed, which a shared count only does with leases renewed while the stream is open.
 */
export class OpenStreams {
  private readonly open = new Map<string, number>();
  private held = 0;

  constructor(readonly maxPerKey: number) {}

  /** Takes a place for the key, or throws the 429 `too_many_streams` with nothing taken. */
  take(keyId: string): void {
    const held = this.open.get(keyId) ?? 0;
    if (held >= this.maxPerKey) throw tooManyStreams(this.maxPerKey);
    this.open.set(keyId, held + 1);
    this.held += 1;
  }

  /** Gives one place of the key back. */
  release(keyId: string): void {
    const held = this.open.get(keyId) ?? 0;
    if (held === 0) return;
    if (held === 1) this.open.delete(keyId);
    else this.open.set(keyId, held - 1);
    this.held -= 1;
  }

  /** Streams open on this replica, all keys together. */
  get total(): number {
    return this.held;
  }

  /** Streams the key holds open on this replica. */
  heldBy(keyId: string): number {
    return this.open.get(keyId) ?? 0;
  }
}

/** The open streams of this gateway replica on /metrics, read when scraped. */
export function registerOpenStreamMetrics(registry: Registry, streams: OpenStreams): void {
  gaugeOn(registry, {
    name: 'analyst_gateway_event_streams_open',
    help: "GET /events streams open through this gateway replica (each holds one of its key's places)",
    collect() {
      this.set(streams.total);
    },
  });
}
