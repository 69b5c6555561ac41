/** pino's numeric levels, so an alert on `level >= 50` reads these lines like the service's own. */
export const LOG_LEVELS = { warn: 40, error: 50, fatal: 60 } as const;

/**
 * One log line in the shape of the service logger's JSON (level, time, fields, msg: pino's, with
 * pid and hostname left out as the service's `base` leaves them), for the few lines this library
 * writes when the service gave it no logger. The library does not depend on pino.
 */
export function jsonLogLine(level: keyof typeof LOG_LEVELS, fields: object, msg: string): string {
  return JSON.stringify({
    level: LOG_LEVELS[level],
    time: Date.now(),
    ...fields,
    msg,
  });
}
