/** How `GET /events` behaves, from the environment (read once, when the module starts). */
export interface EventStreamSettings {
  /** A `: heartbeat` comment this often, so proxies and clients see a live connection. */
  heartbeatMs: number;
  /** How far back `Last-Event-ID` may resume: the event it names was recorded at most this long ago. */
  retentionMs: number;
  /** A stream whose reader takes nothing for this long (its buffer full) is closed; it resumes by Last-Event-ID. */
  stalledReaderMs: number;
}

export const EVENT_STREAM_SETTINGS = Symbol('EventStreamSettings');

export const DEFAULT_HEARTBEAT_MS = 15_000;
export const DEFAULT_RETENTION_HOURS = 24;
/** At least a minute, and never shorter than four heartbeats. */
const STALLED_READER_FLOOR_MS = 60_000;

function wholeNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
  unit: string,
): number {
  const text = env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number of ${unit} from ${min} to ${max}, is "${text}"`);
  return value;
}

/**
 * ANALYST_EVENTS_HEARTBEAT_MS (default 15,000; 100 to 300,000) and ANALYST_EVENTS_RETENTION_HOURS
 * (default 24; 1 to 720). Throws at start on a value out of range, naming the variable.
 */
export function eventStreamSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): EventStreamSettings {
  const heartbeatMs = wholeNumber(
    env,
    'ANALYST_EVENTS_HEARTBEAT_MS',
    DEFAULT_HEARTBEAT_MS,
    100,
    300_000,
    'milliseconds',
  );
  const retentionHours = wholeNumber(
    env,
    'ANALYST_EVENTS_RETENTION_HOURS',
    DEFAULT_RETENTION_HOURS,
    1,
    720,
    'hours',
  );
  return {
    heartbeatMs,
    retentionMs: retentionHours * 3_600_000,
    stalledReaderMs: Math.max(STALLED_READER_FLOOR_MS, 4 * heartbeatMs),
  };
}
