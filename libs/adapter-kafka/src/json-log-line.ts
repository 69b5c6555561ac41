import { hostname } from 'node:os';

/** pino's numeric levels, so an alert on `level >= 50` reads these lines like the service's own. */
export const LOG_LEVELS = { warn: 40, error: 50, fatal: 60 } as const;

/**
 * One log line in pino's JSON shape (level, time, pid, hostname, fields, msg), for the few lines
 * this library writes when the service gave it no logger. The library does not depend on pino.
 */
export function jsonLogLine(level: keyof typeof LOG_LEVELS, fields: object, msg: string): string {
  return JSON.stringify({
    level: LOG_LEVELS[level],
    time: Date.now(),
    pid: process.pid,
    hostname: hostname(),
    ...fields,
    msg,
  });
}
