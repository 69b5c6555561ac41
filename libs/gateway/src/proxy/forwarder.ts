import { Inject, Injectable, Logger, Optional, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ANALYST_CONFIG,
  CLOCK,
  SpanKind,
  contextWith,
  endSpan,
  injectTraceHeaders,
  startSpan,
  type AnalystConfig,
  type Clock,
  principalOf,
  routePattern,
  type Principal,
} from '@analyst/platform';
import { INTERNAL_AUTH_HEADER, signInternalAuth } from '../internal/internal-auth';
import { isStreamRoute } from '../limits/stream-routes';
import { UNAVAILABLE, failure, refusedAtConnect, resetBeforeAnswer, sendFailure } from './forward-failures';
import type { Replica } from './replica-discovery';
import { StreamForwarder } from './stream-forwarder';
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

/**
 * Forwards an admitted request to a replica of its service with @fastify/reply-from, adding the
 * signed internal auth header. The pool orders the replicas (a team's own replica first for the
 * team-affine services); a replica that refuses the connection (nothing was sent) is skipped for
 * the next one. The upstream body is buffered before it is sent on, so the gateway's 5 MB cap and
 * byte accounting see proxied responses exactly as they see its own. The stream routes
 * (`GET /events`) go through the StreamForwarder instead: piped as they come, on connections of
 * their own, ended at shutdown so the server's close does not wait on them; their bytes are not
 * counted against the daily byte cap (the stream counts once, as its request).
 */
@Injectable()
export class Forwarder implements OnModuleDestroy {
  private readonly logger = new Logger('Forwarder');
  private readonly streams = new StreamForwarder();

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
    if (isStreamRoute(request.method, routePattern(request)))
      return new Promise<void>((resolve) =>
        this.streams.forward({
          request,
          reply,
          replicas,
          headers: { ...trace, [INTERNAL_AUTH_HEADER]: signed, 'x-correlation-id': String(request.id) },
          timeoutMs: this.options.timeoutMs ?? 30_000,
          onAnswered: (replica) => {
            this.pool.markAnswered(service);
            this.metrics?.forwarded(service, replica);
          },
          onRefused: (replica) => {
            this.pool.markRefused(service, replica);
            this.metrics?.refused(service, replica);
            this.logger.warn(`${service} replica ${replica.id} refused the connection`);
          },
          onSettled: (error) => {
            endSpan(span, error);
            resolve();
          },
        }),
      );
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
   * At shutdown, before the HTTP server closes: each stream passed through ends cleanly (the
   * client reconnects, with Last-Event-ID, to another gateway) and its upstream request is closed.
   */
  onModuleDestroy(): void {
    this.streams.closeAll();
  }
}
