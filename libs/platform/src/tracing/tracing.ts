import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

export { SpanKind, type Context, type Span } from '@opentelemetry/api';

/** The W3C header that carries a trace across HTTP and Kafka (and is stored with events). */
export const TRACEPARENT = 'traceparent';

/**
 * The propagator is used directly rather than through the global API: header maps and stored
 * events always speak W3C trace context, whichever propagators an SDK registers.
 */
const w3c = new W3CTraceContextPropagator();

type HeaderMap = Record<string, string | string[] | undefined>;

const getter: TextMapGetter<HeaderMap> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key] ?? carrier[key.toLowerCase()],
};

/** Null until startTracing (or a test) enables tracing: every helper below is then a plain call. */
let tracer: Tracer | null = null;

export function tracingEnabled(): boolean {
  return tracer !== null;
}

/** Spans start from now on, on the given provider (the registered global one by default). */
export function enableTracing(provider: TracerProvider = trace.getTracerProvider()): void {
  tracer = provider.getTracer('analyst');
}

export function disableTracing(): void {
  tracer = null;
}

/** Writes the `traceparent` (and `tracestate`) of the context's span into `headers`; nothing when it has none. */
export function injectTraceHeaders<H extends Record<string, unknown>>(
  headers: H,
  ctx: Context = context.active(),
): H {
  w3c.inject(ctx, headers, {
    set: (carrier, key, value) => ((carrier as Record<string, unknown>)[key] = value),
  });
  return headers;
}

/** A context whose parent is the remote span named by `traceparent` in `headers`; the root context when there is none (or it is malformed). */
export function extractTraceContext(headers: HeaderMap | undefined): Context {
  if (!headers?.[TRACEPARENT]) return ROOT_CONTEXT;
  return w3c.extract(ROOT_CONTEXT, headers, getter);
}

/** The `traceparent` of the active span, for storing with an event; undefined when no span is recording. */
export function currentTraceparent(ctx: Context = context.active()): string | undefined {
  if (!tracer) return undefined;
  const value = injectTraceHeaders<Record<string, string>>({}, ctx)[TRACEPARENT];
  return value || undefined;
}

export interface SpanStart {
  kind: SpanKind;
  attributes?: Attributes;
  /** Parent context; the active one when absent. */
  parent?: Context;
}

/** Starts a span (not made active); null when tracing is off, so callers skip all span work. */
export function startSpan(name: string, start: SpanStart): Span | null {
  if (!tracer) return null;
  return tracer.startSpan(
    name,
    { kind: start.kind, attributes: start.attributes },
    start.parent ?? context.active(),
  );
}

/** Ends a span with its error recorded, if any; 4xx-style outcomes are left to the caller. */
export function endSpan(span: Span | null, error?: unknown): void {
  if (!span) return;
  if (error !== undefined) failSpan(span, error);
  span.end();
}

export function failSpan(span: Span, error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  span.recordException(failure);
  span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
}

/** Context in which `span` is the active span. */
export function contextWith(span: Span, parent: Context = context.active()): Context {
  return trace.setSpan(parent, span);
}

/**
 * Runs `fn` inside a new active span, ended when `fn` settles (a throw marks it failed and is
 * rethrown). With tracing off this is `fn()` and nothing else.
 */
export async function withSpan<T>(
  name: string,
  start: SpanStart,
  fn: (span: Span | null) => Promise<T> | T,
): Promise<T> {
  const span = startSpan(name, start);
  if (!span) return fn(null);
  try {
    const result = await context.with(contextWith(span, start.parent ?? context.active()), () => fn(span));
    span.end();
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}
