import replyFrom from '@fastify/reply-from';
import {
  Logger,
  Module,
  Optional,
  type DynamicModule,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { HttpMetrics } from '@analyst/platform';
import { Forwarder, PROXY_OPTIONS, type ProxyOptions } from './forwarder';
import { GatewayProxyController } from './proxy.controller';
import { UpstreamMetrics } from './upstream-metrics';
import { UpstreamPool } from './upstream-pool';
import { parseUpstreamList, upstreamVariable } from './upstream-urls';
import type { UpstreamService } from './upstreams';

/** The pool of every service's replicas, from the lists in the options (validated at start by apps/gateway). */
function poolOf(options: ProxyOptions): UpstreamPool {
  const logger = new Logger('UpstreamPool');
  const upstreams = Object.fromEntries(
    Object.entries(options.upstreams).map(([service, text]) => {
      const variable = upstreamVariable(service as UpstreamService);
      const { urls, problems } = parseUpstreamList(variable, text);
      if (problems.length > 0) throw new Error(problems.join('; '));
      return [service, urls];
    }),
  ) as Record<UpstreamService, ReturnType<typeof parseUpstreamList>['urls']>;
  return new UpstreamPool(upstreams, {
    onLookupError: (service, url, error) =>
      logger.warn(
        `${service}: resolving ${url.host} failed (${error.message}); its replicas stay as last seen`,
      ),
    ...options.pool,
  });
}

/** The distributed gateway's forwarding: every route another service owns, proxied to a replica of it. */
@Module({ controllers: [GatewayProxyController], providers: [Forwarder] })
export class GatewayProxyModule implements OnModuleInit, OnModuleDestroy {
  static forRoot(options: ProxyOptions): DynamicModule {
    return {
      module: GatewayProxyModule,
      providers: [
        { provide: PROXY_OPTIONS, useValue: options },
        { provide: UpstreamPool, useFactory: () => poolOf(options) },
        {
          provide: UpstreamMetrics,
          useFactory: (pool: UpstreamPool, metrics?: HttpMetrics) =>
            metrics ? new UpstreamMetrics(metrics.registry, pool) : undefined,
          inject: [UpstreamPool, { token: HttpMetrics, optional: true }],
        },
      ],
    };
  }

  constructor(
    private readonly host: HttpAdapterHost,
    @Optional() private readonly pool?: UpstreamPool,
  ) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(replyFrom, { disableRequestLogging: true });
    // The first requests find the replicas resolved and probed.
    await this.pool?.start();
  }

  onModuleDestroy(): void {
    this.pool?.stop();
  }
}
