import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import {
  ConfigError,
  EVENT_STORE,
  ProjectionService,
  describeEventStore,
  eventStoreLocation,
  loadConfig,
  type EventStore,
} from '@analyst/platform';
import { StandaloneModule } from './app.module';

/**
 * `npm run read-models:rebuild`: drops every read model and folds the event log into it again.
 * Booting the modules does exactly that (the projections start from position 0), so this boots them
 * without HTTP, reports what it folded and exits. Standalone also does it on every start, since its
 * read models live in memory.
 *
 * Distributed read models (MongoDB) are refused, decided: booting every module there would join the
 * services' Kafka consumer groups and resume from their checkpoints rather than rebuild, and a drop
 * under running replicas races their writes. There, a read model is rebuilt by dropping its
 * collections and its `projections:<service>` checkpoint and starting one replica of the service
 * (deploy/k8s/README.md), and `ledger audit` checks the ledger's against the log.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : String(error));
    process.exit(2);
  }
  if (config.ANALYST_MODE === 'distributed') {
    console.error(
      'read-models:rebuild rebuilds the standalone read models; for MongoDB read models drop the collections and the projections:<service> checkpoint, then start one replica of the service (deploy/k8s/README.md)',
    );
    process.exit(2);
  }
  const started = Date.now();
  const app = await NestFactory.createApplicationContext(StandaloneModule.forRoot(config), {
    logger: ['error', 'warn'],
  });
  await app.init();
  const head = await app.get<EventStore>(EVENT_STORE).headPosition();
  const ready = app.get(ProjectionService).ready;
  await app.close();
  console.log(
    `read models rebuilt from the ${describeEventStore(eventStoreLocation(config))}: log head at position ${head}, caught up: ${ready}, ${Date.now() - started} ms`,
  );
}

void main();
