import { Module, type DynamicModule } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { HealthController } from './health.controller';
import { HealthRegistry } from './health-registry';
import { HttpMetrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { PINO_LOGGER } from './pino-nest-logger';
import { terminalLogStream } from './terminal-log-format';

/**
 * Human-readable lines for someone watching a terminal; JSON lines for log collectors, i.e. whenever
 * stdout is not a terminal. `LOG_FORMAT=json` or `pretty` overrides the guess (`auto`, the default).
 */
export function prettyLogs(
  env: NodeJS.ProcessEnv = process.env,
  isTty = Boolean(process.stdout.isTTY),
): boolean {
  if (env.LOG_FORMAT === 'json') return false;
  if (env.LOG_FORMAT === 'pretty') return true;
  return isTty;
}

/**
 * The process's one pino logger: JSON lines with a numeric `level`, or one readable line per record
 * on a terminal (terminalLogStream). runService makes it before anything starts, so the crash
 * handler and kafkajs write through it too.
 */
export function serviceLogger(options: { service: string; level: string }): Logger {
  const settings = {
    level: options.level,
    base: { service: options.service },
    redact: ['req.headers.authorization', 'req.headers["x-api-key"]'],
  };
  return prettyLogs() ? pino(settings, terminalLogStream()) : pino(settings);
}

/**
 * Structured JSON logs (pino; one line per request, written by createHttpApp's response hook with
 * the request's correlation id), health routes and the metrics registry.
 */
@Module({})
export class ObservabilityModule {
  /** `logger`: one made already by serviceLogger (runService's); otherwise one is made here. */
  static forRoot(options: { service: string; level: string; logger?: Logger }): DynamicModule {
    const logger = options.logger ?? serviceLogger(options);
    return {
      module: ObservabilityModule,
      global: true,
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: HttpMetrics, useValue: new HttpMetrics(options.service) },
        { provide: PINO_LOGGER, useValue: logger },
        { provide: HealthRegistry, useValue: new HealthRegistry() },
      ],
      exports: [HttpMetrics, PINO_LOGGER, HealthRegistry],
    };
  }
}
