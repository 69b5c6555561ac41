import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { Inject, Injectable, Logger, Optional, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ANALYST_CONFIG,
  CLOCK,
  DEPENDENCY_RETRY_AFTER_SECONDS,
  DEPENDENCY_UNAVAILABLE_CODE,
  SpanKind,
  contextWith,
  endSpan,
  injectTraceHeaders,
  startSpan,
  type AnalystConfig,
  type Clock,
  principalOf,
  type Principal,
} from '@analyst/platform';
import { INTERNAL_AUTH_HEADER, signInternalAuth } from '../internal/internal-auth';
import type { Replica } from './replica-discovery';
import { CONNECT_REFUSALS } from './replica-readiness';
import { UpstreamMetrics } from './upstream-metrics';
import { UpstreamPool, type UpstreamPoolOptions } from './upstream-pool';
import type { UpstreamService } from './upstreams';

export interface ProxyOptions {
  /**
   * The replicas of each service, from ANALYST_UPSTREAM_<SERVICE>: one base URL or several,
   * comma-separated; each host name stands for every address it resolves to.
   */
  upstreams: Record<UpstreamService, string>;
  /** How long a service may take to answer before the client gets 504. */
  timeoutMs?: number;
  /** Resolution and probe intervals, and the resolver and probe themselves (tests inject them). */
  pool?: UpstreamPoolOptions;
}
export const PROXY_OPTIONS = Symbol('ProxyOptions');

/** An admin call has no API key; services see an operator principal with no scopes. */
const OPERATOR: Principal = {
  keyId: '',
  keyName: 'operator',
  scopes: [],
  teamId: '',
  plan: 'enterprise',
  targetTeamId: '',
  targetPlan: 'enterprise',
};

interface ForwardFailure {
  status: number;
  message: string;
  /** A service that is not listening is the cue to retry later, as a service's own 503 is. */
  code?: string;
}

/** A service that cannot be reached, whether refused at connect or with no replica ready. */
const UNAVAILABLE: ForwardFailure = {
  status: 503,
  message: `service unavailable: the service behind this route is not answering; send the request again after ${DEPENDENCY_RETRY_AFTER_SECONDS} s`,
  code: DEPENDENCY_UNAVAILABLE_CODE,
};

/** Maps a failed forward to a clean status in the envelope: 503 unreachable, 504 too slow, 502 otherwise. */
function failure(raw: Error): ForwardFailure {
  const error = raw as Error & { cause?: { code?: string }; statusCode?: number; code?: string };
  const code = error.cause?.code ?? error.code;
  if (error.statusCode === 504 || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { status: 504, message: 'the service behind this route did not answer in time; retry later' };
  }
  if (
    (code !== undefined && CONNECT_REFUSALS.has(code)) ||
    code === 'ENOTFOUND' ||
    error.statusCode === 503
  ) {
    return UNAVAILABLE;
  }
  return { status: 502, message: 'the service behind this route failed to answer properly' };
}

/** The slice of a reply the failure needs (reply-from hands over replies of any server type). */
interface FailureReply {
  header(name: string, value: string): unknown;
  code(status: number): { type(contentType: string): { send(body: unknown): unknown } };
}

function errorCode(raw: Error): string | undefined {
  return (raw as Error & { cause?: { code?: string } }).cause?.code ?? (raw as { code?: string }).code;
}

/** Nothing reached the replica: the request may go to the next one, and this replica is down. */
function refusedAtConnect(raw: Error): boolean {
  const code = errorCode(raw);
  return code !== undefined && CONNECT_REFUSALS.has(code);
}

/**
 * A connection that closed before any answer (a keep-alive socket of a replica just killed, or the
 * replica dying mid-request): a read may be sent again to the next replica, a write may not (it may
 * have been applied), so a POST keeps today's 502.
 */
function resetBeforeAnswer(raw: Error, method: string): boolean {
  const code = errorCode(raw);
  return (method === 'GET' || method === 'HEAD') && (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET');
}

function sendFailure(reply: FailureReply, { status, message, code }: ForwardFailure): void {
  if (status === 503) reply.header('Retry-After', String(DEPENDENCY_RETRY_AFTER_SECONDS));
  void reply
    .code(status)
    .type('application/json')
    .send({ error: code ? { message, code } : { message } });
}

/** A server-sent event stream (`GET /events`): passed on as it comes, never buffered. */
function isEventStream(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^text\/event-stream\b/i.test(contentType);
}

/** An event stream being passed on: the upstream body and the client's response it is piped into. */
interface PassedStream {
  upstream: Readable;
  client: ServerResponse;
}

/**
 * Forwards an admitted request to a replica of its service with @fastify/reply-from, adding the
 * signed internal auth header. The pool orders the replicas (a team's own replica first for the
 * team-affine services); a replica that refuses the connection (nothing was sent) is skipped for
 * the next one. The upstream body is buffered before it is sent on, so the gateway's 5 MB cap and
 * byte accounting see proxied responses exactly as they see its own; except an event stream
 * (`text/event-stream`), which is piped through as it comes (with backpressure), whose client
 * disconnect destroys the upstream body (so the upstream request ends), and which is ended at
 * shutdown so the server's close does not wait on it. Its bytes are not counted against the daily
 * byte cap: the stream counts once, as its request.
 */
@Injectable()
export class Forwarder implements OnModuleDestroy {
  private readonly logger = new Logger('Forwarder');
  private readonly streams = new Set<PassedStream>();

  constructor(
    @Inject(ANALYST_CONFIG) private readonly config: AnalystConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PROXY_OPTIONS) private readonly options: ProxyOptions,
    private readonly pool: UpstreamPool,
    @Optional() private readonly metrics?: UpstreamMetrics,
  ) {}

  forward(request: FastifyRequest, reply: FastifyReply, service: UpstreamService): Promise<void> {
    const principal = principalOf(request) ?? OPERATOR;
    const replicas = this.pool.candidates(service, principal.targetTeamId || null);
    if (replicas.length === 0) {
      // No replica ready: the answer a refused connection gets, without trying one.
      sendFailure(reply, UNAVAILABLE);
      return Promise.resolve();
    }
    const signed = signInternalAuth(
      this.config.ANALYST_INTERNAL_SECRET!,
      principal,
      String(request.id),
      this.clock.now().getTime(),
    );
    // A CLIENT span (child of the gateway's request span) whose traceparent the service continues.
    const span = startSpan(`forward ${service}`, {
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': request.method, 'analyst.upstream': service },
    });
    const trace = span ? injectTraceHeaders<Record<string, string>>({}, contextWith(span)) : {};
    return new Promise<void>((resolve) => {
      const attempt = (index: number): void => {
        const replica: Replica = replicas[index];
        const target = `${replica.base}${request.url}`;
        span?.setAttribute('url.full', target);
        span?.setAttribute('analyst.upstream.replica', replica.id);
        reply.from(target, {
          timeout: this.options.timeoutMs ?? 30_000,
          retriesCount: 0,
          rewriteRequestHeaders: (_req, headers) => {
            // A client's own traceparent is replaced by the gateway's span, which already continues it.
            const { [INTERNAL_AUTH_HEADER]: _spoofed, ...rest } = headers;
            return {
              ...rest,
              ...trace,
              [INTERNAL_AUTH_HEADER]: signed,
              'x-correlation-id': String(request.id),
            };
          },
          rewriteHeaders: (headers) => {
            // The body is re-sent as a buffer: its length is recomputed, and the connection is ours.
            const { 'content-length': _l, 'transfer-encoding': _t, connection: _c, ...rest } = headers;
            return rest;
          },
          onResponse: (_req, rep, res) => {
            this.pool.markAnswered(service);
            this.metrics?.forwarded(service, replica);
            span?.setAttribute('http.response.status_code', res.statusCode);
            // The upstream's headers are on the reply already (reply-from copies them before this).
            if (isEventStream(rep.getHeader('content-type'))) {
              this.passThrough(rep as unknown as FastifyReply, res.stream as Readable, span);
              resolve();
              return;
            }
            const chunks: Buffer[] = [];
            res.stream.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.stream.on('end', () => {
              endSpan(span);
              void rep.send(Buffer.concat(chunks));
              resolve();
            });
            res.stream.on('error', (error: Error) => {
              endSpan(span, error);
              sendFailure(rep, failure(error));
              resolve();
            });
          },
          onError: (rep, { error }) => {
            const refused = refusedAtConnect(error);
            if (refused) {
              this.pool.markRefused(service, replica);
              this.metrics?.refused(service, replica);
            }
            if ((refused || resetBeforeAnswer(error, request.method)) && index + 1 < replicas.length) {
              this.logger.warn(
                `${service} replica ${replica.id} ${refused ? 'refused the connection' : 'closed the connection before answering'}; trying the next one`,
              );
              attempt(index + 1);
              return;
            }
            if (!refused) this.metrics?.forwarded(service, replica);
            endSpan(span, error);
            this.logger.warn(`forward to ${service} replica ${replica.id} failed: ${error.message}`);
            sendFailure(rep, failure(error));
            resolve();
          },
        });
      };
      attempt(0);
    });
  }

  /**
   * Sends the upstream body on as it arrives: Fastify pipes it (backpressure included) and destroys
   * it when the client goes away, which aborts the upstream request. No body timeout beyond the
   * forward's own (`timeoutMs` between two chunks; the stream's heartbeats keep it alive).
   */
  private passThrough(reply: FastifyReply, upstream: Readable, span: ReturnType<typeof startSpan>): void {
    const passed: PassedStream = { upstream, client: reply.raw };
    this.streams.add(passed);
    upstream.once('close', () => {
      this.streams.delete(passed);
      endSpan(span);
    });
    void reply.send(upstream);
  }

  /**
   * At shutdown, before the HTTP server closes: each stream passed through ends cleanly (the
   * client reconnects, with Last-Event-ID, to another gateway) and its upstream request is closed.
   */
  onModuleDestroy(): void {
    for (const { upstream, client } of this.streams) {
      upstream.unpipe(client);
      client.end();
      upstream.destroy();
    }
    this.streams.clear();
  }
}
