import { Inject, Injectable, Logger } from '@nestjs/common';
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
import type { UpstreamService } from './upstreams';

export interface ProxyOptions {
  /** Base URL per service, from ANALYST_UPSTREAM_<SERVICE>. */
  upstreams: Record<UpstreamService, string>;
  /** How long a service may take to answer before the client gets 504. */
  timeoutMs?: number;
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

/** Maps a failed forward to a clean status in the envelope: 503 unreachable, 504 too slow, 502 otherwise. */
function failure(raw: Error): ForwardFailure {
  const error = raw as Error & { cause?: { code?: string }; statusCode?: number; code?: string };
  const code = error.cause?.code ?? error.code;
  if (error.statusCode === 504 || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { status: 504, message: 'the service behind this route did not answer in time; retry later' };
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || error.statusCode === 503) {
    return {
      status: 503,
      message: `service unavailable: the service behind this route is not answering; send the request again after ${DEPENDENCY_RETRY_AFTER_SECONDS} s`,
      code: DEPENDENCY_UNAVAILABLE_CODE,
    };
  }
  return { status: 502, message: 'the service behind this route failed to answer properly' };
}

/** The slice of a reply the failure needs (reply-from hands over replies of any server type). */
interface FailureReply {
  header(name: string, value: string): unknown;
  code(status: number): { type(contentType: string): { send(body: unknown): unknown } };
}

function sendFailure(reply: FailureReply, { status, message, code }: ForwardFailure): void {
  if (status === 503) reply.header('Retry-After', String(DEPENDENCY_RETRY_AFTER_SECONDS));
  void reply
    .code(status)
    .type('application/json')
    .send({ error: code ? { message, code } : { message } });
}

/**
 * Forwards an admitted request to its service with @fastify/reply-from, adding the signed internal
 * auth header. The upstream body is buffered before it is sent on, so the gateway's 5 MB cap and
 * byte accounting see proxied responses exactly as they see its own.
 */
@Injectable()
export class Forwarder {
  private readonly logger = new Logger('Forwarder');

  constructor(
    @Inject(ANALYST_CONFIG) private readonly config: AnalystConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PROXY_OPTIONS) private readonly options: ProxyOptions,
  ) {}

  forward(request: FastifyRequest, reply: FastifyReply, service: UpstreamService): Promise<void> {
    const secret = this.config.ANALYST_INTERNAL_SECRET!;
    const signed = signInternalAuth(
      secret,
      principalOf(request) ?? OPERATOR,
      String(request.id),
      this.clock.now().getTime(),
    );
    const target = `${this.options.upstreams[service]}${request.url}`;
    // A CLIENT span (child of the gateway's request span) whose traceparent the service continues.
    const span = startSpan(`forward ${service}`, {
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': request.method, 'url.full': target, 'analyst.upstream': service },
    });
    const trace = span ? injectTraceHeaders<Record<string, string>>({}, contextWith(span)) : {};
    return new Promise<void>((resolve) => {
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
          endSpan(span, error);
          this.logger.warn(`forward to ${service} failed: ${error.message}`);
          sendFailure(rep, failure(error));
          resolve();
        },
      });
    });
  }
}
