import replyFrom from '@fastify/reply-from';
import { Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { Forwarder, PROXY_OPTIONS, type ProxyOptions } from './forwarder';
import { GatewayProxyController } from './proxy.controller';

/** The distributed gateway's forwarding: every route another service owns, proxied to it. */
@Module({ controllers: [GatewayProxyController], providers: [Forwarder] })
export class GatewayProxyModule implements OnModuleInit {
  static forRoot(options: ProxyOptions): DynamicModule {
    return { module: GatewayProxyModule, providers: [{ provide: PROXY_OPTIONS, useValue: options }] };
  }

  constructor(private readonly host: HttpAdapterHost) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(replyFrom, { disableRequestLogging: true });
  }
}
