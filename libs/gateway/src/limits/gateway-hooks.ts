import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorEnvelope } from '@analyst/contracts';
import { MAX_RESPONSE_BYTES, secondsUntilMidnight, utcDay } from '@analyst/domain-identity';
import { CLOCK, routePattern, type Clock } from '@analyst/platform';
import { accountOf, BYTE_CAP_CLASS, GatewayPipeline, type KeyAccount } from '../auth/gateway-pipeline';
import { isPublicApiPath } from '../auth/gateway.guard';
import { UsageRecorder } from '../usage/usage-recorder';
import { RateLimitService } from './rate-limit.service';

const JSON_TYPE = 'application/json; charset=utf-8';

function byteLength(payload: unknown): number {
  if (payload === null || payload === undefined) return 0;
  if (typeof payload === 'string') return Buffer.byteLength(payload);
  if (Buffer.isBuffer(payload)) return payload.length;
  return 0; // streams are not sent by any public route; they would be counted as 0
}

function envelope(message: string, code: string): string {
  const body: ErrorEnvelope = { error: { message, code } };
  return JSON.stringify(body);
}

/**
 * Fastify hooks for what no Nest guard can see: unknown routes under the prefix (authenticated
 * and counted like any other request, so their 404 carries the rate headers), and every response
 * body of an authenticated key (the 5 MB cap, the daily byte cap, usage per key per day).
 */
@Injectable()
export class GatewayHooks implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly pipeline: GatewayPipeline,
    private readonly limits: RateLimitService,
    private readonly usage: UsageRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify || typeof fastify.addHook !== 'function') return;
    // Callback hooks with a synchronous way out: most requests need neither, and an async hook
    // costs every request a promise.
    fastify.addHook('preHandler', (request, reply, done) => {
      if (routePattern(request) !== undefined || !isPublicApiPath(request.url)) return done();
      this.unmatched(request, reply).then((answered) => {
        if (!answered) done();
      }, done);
    });
    fastify.addHook('onSend', (request, reply, payload, done) => {
      const account = accountOf(request);
      if (!account || this.accountedNow(account, reply, payload)) return done(null, payload);
      this.account(account, reply, payload).then((body) => done(null, body), done);
    });
  }

  /** Admits a request no route matched (so its 404 is counted); true when it answered instead. */
  private async unmatched(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    try {
      await this.pipeline.admit(request, reply, {
        scopes: [],
        rateClass: 'global',
        route: `${request.method} ${request.url.split('?')[0]}`,
      });
      return false;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      void reply.headers(error.headers).status(error.status).type(JSON_TYPE);
      await reply.send(envelope(error.message, error.code ?? 'error'));
      return true;
    }
  }

  /**
   * The common case without a promise (which costs every response a turn of the microtask queue):
   * a body within 5 MB whose bytes the counters take at once. False, with nothing counted, sends the
   * response through `account`.
   */
  private accountedNow(account: KeyAccount, reply: FastifyReply, payload: unknown): boolean {
    const size = byteLength(payload);
    if (size > MAX_RESPONSE_BYTES) return false;
    const now = this.clock.now();
    const counted =
      reply.statusCode >= 400
        ? this.limits.countBytesNow(account.keyId, size, now)
        : this.limits.spendBytesNow(account.keyId, size, account.dailyBytes, now) === true;
    if (counted) this.usage.record(account.keyId, account.teamId, utcDay(now), 1, size);
    return counted;
  }

  private async account(account: KeyAccount, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const now = this.clock.now();
    let body = payload;
    let size = byteLength(body);
    if (size > MAX_RESPONSE_BYTES) {
      body = envelope(
        `the response would be ${size} bytes, over the ${MAX_RESPONSE_BYTES}-byte (5 MB) limit for a single response; request fewer items with a smaller \`limit\``,
        'response_too_large',
      );
      void reply.status(413).type(JSON_TYPE);
      size = byteLength(body);
    }
    // The hard cap: a body that would take the day past it is not sent. An error answer is always sent.
    let fits = true;
    if (reply.statusCode >= 400) await this.limits.countBytes(account.keyId, size, now);
    else fits = await this.limits.spendBytes(account.keyId, size, account.dailyBytes, now);
    if (!fits) {
      const retryAfter = secondsUntilMidnight(now);
      body = envelope(
        `daily response byte cap of ${account.dailyBytes} bytes reached (this response is ${size} bytes); retry in ${retryAfter} s`,
        'rate_limited',
      );
      void reply
        .status(429)
        .type(JSON_TYPE)
        .header('Retry-After', String(retryAfter))
        .header('X-RateLimit-Class', BYTE_CAP_CLASS);
      size = byteLength(body);
      await this.limits.countBytes(account.keyId, size, now);
    }
    this.usage.record(account.keyId, account.teamId, utcDay(now), 1, size);
    return body;
  }
}
