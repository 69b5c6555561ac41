import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import {
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
} from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-node';
import {
  COMMAND_RUNNER_TRACING,
  CommandRunner,
  IN_PROCESS_TRACING,
  ConfigError,
  EventRelay,
  InProcessBus,
  MemoryReadStore,
  ReadStoreCheckpointStore,
  SequentialIdGenerator,
  SqliteEventStore,
  SystemClock,
  TRACEPARENT,
  currentTraceparent,
  disableTracing,
  enableTracing,
  eventTopic,
  extractTraceContext,
  injectTraceHeaders,
  startSpan,
  startTracing,
  tracingEnabled,
  tracingSettings,
  withSpan,
  type BusMessage,
  type Decider,
} from '@analyst/platform';
import { createTestApp, eventually } from '@analyst/testing';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const PARENT = `00-${TRACE_ID}-${SPAN_ID}-01`;

/** A one-event decider: enough for CommandRunner to append something. */
const noteDecider: Decider<{ text: string }, { type: 'Noted'; data: { text: string } }, number> = {
  initialState: () => 0,
  decide: (command) => [{ type: 'Noted', data: { text: command.text } }],
  evolve: (count) => count + 1,
};

const ids = new SequentialIdGenerator();

@Controller('traced')
class TracedController {
  @Get()
  get() {
    return { data: { traceparent: currentTraceparent() ?? null } };
  }

  @Post()
  post(@Body() body: Record<string, unknown>) {
    return { data: { traceparent: currentTraceparent() ?? null, body } };
  }
}

@Module({ controllers: [TracedController] })
class TracedModule {}

describe('tracing: W3C headers', () => {
  it('extracts the parent named by a traceparent header and injects it back unchanged', () => {
    const parent = extractTraceContext({ traceparent: PARENT });
    const span = trace.getSpanContext(parent);
    expect(span).toEqual({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1, isRemote: true });
    expect(injectTraceHeaders<Record<string, string>>({ other: 'kept' }, parent)).toEqual({
      other: 'kept',
      traceparent: PARENT,
    });
  });

  it('reads no parent from a missing or malformed header, and injects nothing without a span', () => {
    expect(trace.getSpanContext(extractTraceContext(undefined))).toBeUndefined();
    expect(trace.getSpanContext(extractTraceContext({}))).toBeUndefined();
    expect(trace.getSpanContext(extractTraceContext({ traceparent: '00-not-a-trace-01' }))).toBeUndefined();
    expect(
      trace.getSpanContext(extractTraceContext({ traceparent: `00-${'0'.repeat(32)}-${SPAN_ID}-01` })),
    ).toBeUndefined();
    expect(injectTraceHeaders({}, context.active())).toEqual({});
  });
});

describe('tracing: settings from the OpenTelemetry variables', () => {
  it('is off without an endpoint or with OTEL_SDK_DISABLED=true', () => {
    expect(tracingSettings('ingest', {})).toBeNull();
    expect(tracingSettings('ingest', { OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeNull();
    expect(
      tracingSettings('ingest', {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_SDK_DISABLED: 'true',
      }),
    ).toBeNull();
  });

  it('is on with an endpoint, named after the service unless OTEL_SERVICE_NAME says otherwise', () => {
    expect(tracingSettings('ingest', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({
      endpoint: 'http://collector:4318',
      serviceName: 'ingest',
    });
    expect(
      tracingSettings('ingest', {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c/v1/traces',
        OTEL_SERVICE_NAME: 'ingest-eu',
      }),
    ).toEqual({
      endpoint: 'https://c/v1/traces',
      serviceName: 'ingest-eu',
    });
  });

  it('refuses an endpoint that is not an http(s) URL, naming the variable', () => {
    expect(() => tracingSettings('ingest', { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      ConfigError,
    );
    expect(() => tracingSettings('ingest', { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /^OTEL_EXPORTER_OTLP_ENDPOINT: .*http/,
    );
    expect(() => tracingSettings('ingest', { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow(
      /not a URL/,
    );
  });
});

describe('tracing off (no endpoint)', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'analyst-trace-off-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.db'), synchronous: 'NORMAL' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers no provider, and handlers, commands and messages run as before, without trace data', async () => {
    expect(await startTracing(tracingSettings('ingest', {}))).toBe(false);
    expect(tracingEnabled()).toBe(false);
    // The API's global provider still has no SDK behind it.
    const global = trace.getTracerProvider() as ProxyTracerProvider;
    expect(global.getDelegate().constructor.name).toBe('NoopTracerProvider');
    expect(startSpan('x', { kind: SpanKind.INTERNAL })).toBeNull();
    expect(
      await withSpan('x', { kind: SpanKind.INTERNAL }, (span) =>
        span === null ? 'ran without a span' : 'span',
      ),
    ).toBe('ran without a span');

    const runner = new CommandRunner(store, new SystemClock(), ids, COMMAND_RUNNER_TRACING);
    await runner.run('note-1', noteDecider, { text: 'hello' }, { correlationId: 'c1', teamId: 't1' });
    const [stored] = await store.readStream('note-1');
    expect(stored.metadata).toEqual({
      correlationId: 'c1',
      causationId: null,
      teamId: 't1',
      occurredAt: expect.any(String),
    });

    const bus = new InProcessBus({ tracing: IN_PROCESS_TRACING });
    const seen: BusMessage[] = [];
    await bus.subscribe('g', ['topic'], async (m) => void seen.push(m));
    await bus.publish('topic', [{ id: 'm1', key: 'k', type: 'T', payload: { n: 1 } }]);
    await eventually(() => seen.length === 1);
    expect(seen[0].headers).toEqual({});
    expect(seen[0].payload).toEqual({ n: 1 });
    await bus.close();
  });
});

describe('tracing on', () => {
  const exporter = new InMemorySpanExporter();
  let provider: NodeTracerProvider;
  let dir: string;
  let store: SqliteEventStore;

  beforeAll(() => {
    provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.register(); // the async-hooks context manager, as startTracing registers it
    enableTracing(provider);
  });
  afterAll(async () => {
    disableTracing();
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });
  beforeEach(() => {
    exporter.reset();
    dir = mkdtempSync(join(tmpdir(), 'analyst-trace-on-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.db'), synchronous: 'NORMAL' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const finished = (name: string): ReadableSpan => {
    const span = exporter.getFinishedSpans().find((s) => s.name === name);
    if (!span)
      throw new Error(
        `no finished span ${name}; have ${exporter
          .getFinishedSpans()
          .map((s) => s.name)
          .join(', ')}`,
      );
    return span;
  };

  it('nests spans through awaits and records a failure on the span it escaped from', async () => {
    await withSpan('outer', { kind: SpanKind.INTERNAL }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      await withSpan('inner', { kind: SpanKind.INTERNAL }, async () => undefined);
      await expect(
        withSpan('failing', { kind: SpanKind.INTERNAL }, async () => Promise.reject(new Error('boom'))),
      ).rejects.toThrow('boom');
    });
    const outer = finished('outer');
    expect(finished('inner').parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(finished('inner').spanContext().traceId).toBe(outer.spanContext().traceId);
    expect(finished('failing').status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' });
    expect(finished('failing').events[0].name).toBe('exception');
  });

  it('stores the traceparent of the appending span with each event', async () => {
    const runner = new CommandRunner(store, new SystemClock(), ids, COMMAND_RUNNER_TRACING);
    let expected = '';
    await withSpan('handle', { kind: SpanKind.SERVER }, async (span) => {
      expected = `00-${span!.spanContext().traceId}-${span!.spanContext().spanId}-01`;
      await runner.run('note-2', noteDecider, { text: 'hi' }, { correlationId: 'c2', teamId: 't2' });
    });
    const [stored] = await store.readStream('note-2');
    expect(stored.metadata.traceparent).toBe(expected);
    expect(stored.metadata.correlationId).toBe('c2');
  });

  it('continues the stored trace when the relay publishes the event and a consumer handles it', async () => {
    const runner = new CommandRunner(store, new SystemClock(), ids, COMMAND_RUNNER_TRACING);
    const bus = new InProcessBus({ tracing: IN_PROCESS_TRACING });
    const handled: { message: BusMessage; traceparent: string | undefined }[] = [];
    await bus.subscribe('ingest-fetch', [eventTopic('note')], async (message) => {
      handled.push({ message, traceparent: currentTraceparent() });
    });
    await withSpan('POST /notes', { kind: SpanKind.SERVER }, () =>
      runner.run('note-3', noteDecider, { text: 'x' }, { correlationId: 'c3', teamId: 't3' }),
    );
    // The request's span has ended long before the relay reads the event.
    const relay = new EventRelay(store, bus, new ReadStoreCheckpointStore(new MemoryReadStore()), {
      checkpointEvery: 1,
    });
    await relay.start();
    await eventually(() => handled.length === 1);
    await relay.stop();
    await bus.close();

    const request = finished('POST /notes');
    const consumer = finished(`process ${eventTopic('note')}`);
    expect(consumer.kind).toBe(SpanKind.CONSUMER);
    expect(consumer.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(consumer.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(consumer.attributes).toMatchObject({
      'messaging.system': 'in-process',
      'messaging.consumer.group.name': 'ingest-fetch',
      'messaging.operation.type': 'process',
      'analyst.message.type': 'Noted',
    });
    // Inside the handler the consumer span is active: what it appends continues the same trace.
    expect(handled[0].traceparent).toBe(
      `00-${request.spanContext().traceId}-${consumer.spanContext().spanId}-01`,
    );
    expect(handled[0].message.headers[TRACEPARENT]).toBe(
      `00-${request.spanContext().traceId}-${request.spanContext().spanId}-01`,
    );
  });

  it('runs a served request in a span whose parent is the requester', async () => {
    const bus = new InProcessBus({ tracing: IN_PROCESS_TRACING });
    await bus.serve('analyst.commands.ledger', 'ledger', async () => currentTraceparent());
    let requester = '';
    const served = await withSpan('reserve', { kind: SpanKind.INTERNAL }, async (span) => {
      requester = span!.spanContext().spanId;
      return bus.request<string>(
        'analyst.commands.ledger',
        { id: 'cmd1', key: 'team', type: 'ReserveCredits', payload: {} },
        2_000,
      );
    });
    await bus.close();
    const server = finished('process analyst.commands.ledger');
    expect(server.parentSpanContext?.spanId).toBe(requester);
    expect(served).toBe(`00-${server.spanContext().traceId}-${server.spanContext().spanId}-01`);
  });

  it('gives each HTTP request a SERVER span continuing the caller, active in the handler (also after reading a body)', async () => {
    const app = await createTestApp({ modules: [TracedModule] });
    try {
      const got = await app.request('GET', '/analyst/v1/traced', { headers: { traceparent: PARENT } });
      expect(got.status).toBe(200);
      const get = finished('GET /analyst/v1/traced');
      expect(get.kind).toBe(SpanKind.SERVER);
      expect(get.spanContext().traceId).toBe(TRACE_ID);
      expect(get.parentSpanContext?.spanId).toBe(SPAN_ID);
      expect(get.attributes).toEqual({
        'http.request.method': 'GET',
        'http.route': '/analyst/v1/traced',
        'url.path': '/analyst/v1/traced',
        'http.response.status_code': 200,
      });
      expect(got.body.data.traceparent).toBe(`00-${TRACE_ID}-${get.spanContext().spanId}-01`);

      const posted = await app.request('POST', '/analyst/v1/traced', { body: { a: 1 } });
      const post = finished('POST /analyst/v1/traced');
      expect(post.parentSpanContext).toBeUndefined(); // no traceparent sent: a new trace
      expect(posted.body.data).toEqual({
        traceparent: `00-${post.spanContext().traceId}-${post.spanContext().spanId}-01`,
        body: { a: 1 },
      });

      // Probes are not traced; an unknown route is, under its method alone.
      await app.request('GET', '/healthz');
      await app.request('GET', '/analyst/v1/nothing');
      expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual([
        'GET /analyst/v1/traced',
        'POST /analyst/v1/traced',
        'GET',
      ]);
      expect(finished('GET').attributes['http.response.status_code']).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('injects the active span into message headers for a different trace id each request', async () => {
    const headers = await withSpan('a', { kind: SpanKind.INTERNAL }, async () =>
      injectTraceHeaders<Record<string, string>>({}),
    );
    const again = await withSpan('b', { kind: SpanKind.INTERNAL }, async () =>
      injectTraceHeaders<Record<string, string>>({}),
    );
    expect(headers[TRACEPARENT]).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(headers[TRACEPARENT].split('-')[1]).not.toBe(again[TRACEPARENT].split('-')[1]);
  });
});
