import { SpanStatusCode, context } from '@opentelemetry/api';
import { SpanKind, contextWith, extractTraceContext, startSpan, type Span } from './tracing';

// Stable HTTP semantic-convention attribute names.
const METHOD = 'http.request.method';
const ROUTE = 'http.route';
const STATUS = 'http.response.status_code';
const PATH = 'url.path';

const spans = new WeakMap<object, Span>();

/** What the span needs of a Fastify request (structural: Nest's and Fastify's request types differ). */
export interface TracedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  routeOptions: { url?: string };
}

/**
 * Starts the SERVER span of one HTTP request, named `<METHOD> <route pattern>`, whose parent is
 * the caller's `traceparent`. The app adds these as hooks only when tracing is on.
 */
export function startServerSpan(request: TracedRequest): void {
  const route = request.routeOptions.url;
  const span = startSpan(route === undefined ? request.method : `${request.method} ${route}`, {
    kind: SpanKind.SERVER,
    parent: extractTraceContext(request.headers),
    attributes: {
      [METHOD]: request.method,
      [PATH]: request.url.split('?')[0],
      ...(route === undefined ? {} : { [ROUTE]: route }),
    },
  });
  if (span) spans.set(request, span);
}

/**
 * Runs `next` (the rest of the request) with the request's span active. Called from `preHandler`,
 * not `onRequest`: the body is read in between, from stream events that run outside any async
 * context set earlier, while everything from `preHandler` on (guards, pipes, the handler and what
 * it awaits) inherits it.
 */
export function activateServerSpan(request: TracedRequest, next: () => void): void {
  const span = spans.get(request);
  if (!span) return next();
  context.with(contextWith(span, context.active()), next);
}

/** Ends the request's span with its status; `aborted` when the client went away first. */
export function endServerSpan(request: TracedRequest, statusCode: number, aborted = false): void {
  const span = spans.get(request);
  if (!span) return;
  spans.delete(request);
  if (aborted) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'client aborted the request' });
  } else {
    span.setAttribute(STATUS, statusCode);
    // Server spans fail on 5xx only; a 4xx is the client's mistake, answered correctly.
    if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
