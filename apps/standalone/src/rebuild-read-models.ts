import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, EVENT_STORE, ProjectionService, loadConfig, type EventStore } from '@analyst/platform';
import { StandaloneModule } from './app.module';

/**
 * `npm run read-models:rebuild`: drops every read model and folds the event log into it again.
 * Booting the modules does exactly that (the projections start from position 0), so this boots them
 * without HTTP, reports what it folded and exits. Standalone also does it on every start, since its
 * read models live in memory; the command matters once read models live in MongoDB.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : String(error));
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
    `read models rebuilt from ${config.ANALYST_DATA_DIR}: log head at position ${head}, caught up: ${ready}, ${Date.now() - started} ms`,
  );
}

void main();
