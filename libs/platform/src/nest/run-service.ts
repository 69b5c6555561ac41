import { type Provider, Logger, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { tolerateLeakedKafkaRejections } from '@analyst/adapter-kafka';
import { ConfigError, loadConfig, type AnalystConfig } from '../config/analyst-config';
import { startTracing, tracingSettings, type TracingSettings } from '../tracing/start-tracing';
import { createHttpApp } from './http-app';
import { ObservabilityModule, serviceLogger } from './observability.module';
import { PlatformModule, type PlatformOverrides } from './platform.module';

export interface ServiceDefinition {
  /** Default for ANALYST_SERVICE: consumer groups, client id, checkpoint names, log label. */
  service: string;
  imports: (config: AnalystConfig) => unknown[];
  providers?: Provider[];
  platform?: PlatformOverrides;
  /**
   * The app's own variables' problems (e.g. the gateway's upstream lists), reported with the
   * platform's in one `invalid configuration` message and exit 2, before anything starts.
   */
  configProblems?: (env: NodeJS.ProcessEnv) => string[];
  /** Runs after the app initialised (read models caught up) and before it takes traffic. */
  beforeListen?: (app: NestFastifyApplication, config: AnalystConfig) => Promise<void>;
}

/**
 * Entry point of one service of the distributed topology: validated configuration (exit 2 on a bad
 * setting), the platform on Kafka/MongoDB/EventStoreDB, health, metrics, structured logs, and a
 * graceful SIGTERM (Nest closes consumers, which commit what they handled, then the stores).
 */
export async function runService(definition: ServiceDefinition): Promise<NestFastifyApplication> {
  let config: AnalystConfig;
  let tracing: TracingSettings | null;
  try {
    const own = definition.configProblems?.(process.env) ?? [];
    try {
      config = loadConfig({
        ...process.env,
        ANALYST_SERVICE: process.env.ANALYST_SERVICE ?? definition.service,
      });
    } catch (error) {
      if (error instanceof ConfigError && own.length > 0)
        throw new ConfigError(`${error.message}\n  ${own.join('\n  ')}`);
      throw error;
    }
    if (own.length > 0) throw new ConfigError(`invalid configuration:\n  ${own.join('\n  ')}`);
    if (config.ANALYST_MODE !== 'distributed') {
      throw new ConfigError(
        `ANALYST_MODE: apps/${definition.service} runs only in the distributed topology (use npm start for standalone)`,
      );
    }
    tracing = tracingSettings(config.ANALYST_SERVICE);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
  // One logger from here on: the crash handler's FATAL line, kafkajs' lines and Nest's in one shape.
  const logger = serviceLogger({ service: config.ANALYST_SERVICE, level: config.LOG_LEVEL });
  tolerateLeakedKafkaRejections(logger);
  try {
    // Before any module starts a consumer or a route: spans need the provider from the first message on.
    await startTracing(tracing);
    class ServiceRootModule {}
    Module({
      imports: [
        PlatformModule.forRoot(config, definition.platform),
        ObservabilityModule.forRoot({ service: config.ANALYST_SERVICE, level: config.LOG_LEVEL, logger }),
        ...(definition.imports(config) as never[]),
      ],
      providers: definition.providers ?? [],
    })(ServiceRootModule);
    // Probes answer (not ready, with why) while the read models catch up and the stores connect.
    const app = await createHttpApp(ServiceRootModule, {
      logger,
      startupProbes: { port: config.PORT, host: config.HOST },
    });
    await definition.beforeListen?.(app, config);
    await app.listen({ port: config.PORT, host: config.HOST });
    new Logger('Service').log(`${config.ANALYST_SERVICE} listening on ${config.HOST}:${config.PORT}`);
    return app;
  } catch (error) {
    logger.fatal({ err: error }, `${config.ANALYST_SERVICE} failed to start`);
    process.exit(1);
  }
}
