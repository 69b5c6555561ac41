import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

// Structural types: Nest's Fastify adapter carries its own copy of fastify, whose types differ from the root one's.
interface RoutingError {
  code: string;
  statusCode?: number;
  message: string;
}
interface RoutingRequest {
  headers: Record<string, string | string[] | undefined>;
}
interface RoutingReply {
  code(status: number): RoutingReply;
  header(name: string, value: string): RoutingReply;
  send(body: unknown): unknown;
}

const SAFE_ID = /^[\w.-]{1,128}$/;

/** What the framework's own refusals say, in the API's words. */
const FRAMEWORK: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    code: 'uri_too_long',
    message: 'a path segment is longer than 100 characters',
  },
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'invalid_url',
    message: 'the request path is not a valid URL (bad percent-encoding)',
  },
  FST_ERR_ASYNC_CONSTRAINT: { status: 500, code: 'internal_error', message: 'internal error' },
};

/** Fastify's `frameworkErrors`: refusals raised while routing, before any hook, answered in the envelope. */
export function frameworkErrors(error: RoutingError, request: RoutingRequest, reply: RoutingReply): void {
  const known = FRAMEWORK[error.code] ?? {
    status: error.statusCode ?? 400,
    code: 'invalid_request',
    message: error.message,
  };
  const header = request.headers['x-correlation-id'];
  const id = typeof header === 'string' && SAFE_ID.test(header) ? header : randomUUID();
  void reply
    .code(known.status)
    .header('X-Correlation-Id', id)
    .send({ error: { message: known.message, code: known.code } });
}

/** Node's `clientError`: a request Node could not parse (head over 16 KiB, garbage, timeout), before Fastify sees it. */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'the request head (URL and headers) is larger than 16 KiB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'the request was not received in time']
        : [400, 'malformed_request', 'the request is not valid HTTP/1.1'];
  const body = JSON.stringify({ error: { message, code } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Correlation-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
