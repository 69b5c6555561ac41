import { prettyFactory } from 'pino-pretty';
import type { DestinationStream } from 'pino';

/** Keys every record carries or that the line shows in its own place, not as `key=value`. */
const SHOWN_ELSEWHERE = new Set([
  'level',
  'time',
  'msg',
  'pid',
  'hostname',
  'service',
  'context',
  'err',
  'stack',
]);
/** A request's fields, read into the line's own words (`GET /path 200 3.1 ms`). */
const REQUEST_FIELDS = new Set(['correlationId', 'method', 'url', 'route', 'statusCode', 'responseTimeMs']);
const MAX_FIELDS = 6;
const MAX_VALUE_CHARS = 80;

function fieldValue(value: string | number | boolean): string {
  const text = typeof value === 'string' && /[\s"=]/.test(value) ? JSON.stringify(value) : String(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** The stack (or message) of an error-like value, indented under the line. */
function errorBlock(err: unknown, stack: unknown): string {
  const text =
    typeof stack === 'string'
      ? stack
      : err && typeof err === 'object'
        ? String((err as { stack?: unknown }).stack ?? (err as { message?: unknown }).message ?? '')
        : '';
  return text ? `\n${text.replace(/^/gm, '    ')}` : '';
}

/**
 * What follows the time and level on a terminal line: `[service/context]`, the message, and the
 * record's plain fields as `key=value` (objects left out: they are in the JSON lines). A request
 * reads as `GET /analyst/v1/me 200 3.1 ms`; an error's stack follows, indented.
 */
export function terminalMessage(log: Record<string, unknown>): string {
  const source = [log.service, log.context].filter((part) => typeof part === 'string' && part).join('/');
  let message = typeof log.msg === 'string' ? log.msg : '';
  const request = log.msg === 'request completed' && typeof log.method === 'string';
  if (request)
    message = `${String(log.method)} ${String(log.url)} ${String(log.statusCode)} ${String(log.responseTimeMs)} ms`;
  const fields = Object.entries(log)
    .filter(([key]) => !SHOWN_ELSEWHERE.has(key) && !(request && REQUEST_FIELDS.has(key)))
    .filter((entry): entry is [string, string | number | boolean] =>
      ['string', 'number', 'boolean'].includes(typeof entry[1]),
    )
    .slice(0, MAX_FIELDS)
    .map(([key, value]) => `${key}=${fieldValue(value)}`);
  const line = [source ? `[${source}]` : '', message, ...fields].filter(Boolean).join(' ');
  return line + errorBlock(log.err, log.stack);
}

/**
 * pino-pretty set up for a person at a terminal: one line per record (time, level, then
 * terminalMessage), levels coloured when stdout is a terminal. Each record is formatted and written
 * to process.stdout as pino hands it over (no transport worker, no buffer), so records and the
 * start-up banner appear in the order they were written, and a fatal line is out before exit.
 */
export function terminalLogStream(
  colorize = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
  out: { write(text: string): unknown } = process.stdout,
): DestinationStream {
  const format = prettyFactory({
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    hideObject: true,
    ignore: 'pid,hostname',
    messageFormat: (log) => terminalMessage(log),
  });
  return { write: (record: string) => void out.write(format(record)) };
}
