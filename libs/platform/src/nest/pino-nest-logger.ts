import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

export const PINO_LOGGER = Symbol('PinoLogger');

/**
 * Nest's start-up chatter: a line per module initialised and per route mapped, and its own
 * "starting"/"started" lines (about 70 records for the standalone app). Written at debug, so the
 * default level shows what a person needs (the services' own lines and the banner); LOG_LEVEL=debug
 * brings them back.
 */
const FRAMEWORK_CHATTER = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** Nest's own log lines (startup, errors) as structured pino records with their context. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  private write(
    level: 'info' | 'error' | 'warn' | 'debug' | 'trace',
    message: unknown,
    params: unknown[],
  ): void {
    const context =
      typeof params[params.length - 1] === 'string' ? (params[params.length - 1] as string) : undefined;
    if (message instanceof Error) this.pino[level]({ context, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) this.pino[level]({ context, ...message });
    else this.pino[level]({ context }, String(message));
  }

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    this.write(
      typeof context === 'string' && FRAMEWORK_CHATTER.has(context) ? 'debug' : 'info',
      message,
      params,
    );
  }
  error(message: unknown, ...params: unknown[]): void {
    // Nest passes (message, stack, context) for errors.
    const [stack, context] = params.length >= 2 ? params : [undefined, params[0]];
    this.pino.error({ context, stack }, String(message instanceof Error ? message.message : message));
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
}
