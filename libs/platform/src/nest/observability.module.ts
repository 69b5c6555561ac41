import { randomUUID } from 'node:crypto';
import { Module, RequestMethod, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { HttpMetrics } from './metrics';

const CORRELATION_HEADER = 'x-correlation-id';

/** Structured JSON logs with a correlation id per request, health routes and the metrics registry. */
@Module({})
export class ObservabilityModule {
  static forRoot(options: { service: string; level: string }): DynamicModule {
    return {
      module: ObservabilityModule,
      global: true,
      imports: [
        TerminusModule.forRoot({ logger: false }),
        LoggerModule.forRoot({
          // path-to-regexp v8 syntax for "every route" (the default '*' draws a deprecation warning).
          forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
          pinoHttp: {
            level: options.level,
            base: { service: options.service },
            // createHttpApp has already settled the request's correlation id in this header.
            genReqId: (req) => String(req.headers[CORRELATION_HEADER] ?? randomUUID()),
            customAttributeKeys: { reqId: 'correlationId' },
            redact: ['req.headers.authorization', 'req.headers["x-api-key"]'],
            autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
          },
        }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [{ provide: HttpMetrics, useValue: new HttpMetrics(options.service) }],
      exports: [HttpMetrics],
    };
  }
}
