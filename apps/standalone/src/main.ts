import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import {
  ConfigError,
  createHttpApp,
  loadConfig,
  serviceLogger,
  startTracing,
  tracingSettings,
  type AnalystConfig,
  type TracingSettings,
} from '@analyst/platform';
import { StandaloneModule } from './app.module';
import { DemoSeeder } from './demo-seeder';

/** Made once the configuration (LOG_LEVEL) is valid; a failed start is logged through it. */
let logger: Logger | null = null;

async function main(): Promise<void> {
  let config: AnalystConfig;
  let tracing: TracingSettings | null;
  try {
    config = loadConfig();
    tracing = tracingSettings('analyst-standalone');
  } catch (error) {
    // Fail fast, before opening any file or port, with every bad variable named.
    console.error(error instanceof ConfigError ? error.message : String(error));
    process.exit(2);
  }
  logger = serviceLogger({ service: 'standalone', level: config.LOG_LEVEL });
  await startTracing(tracing);
  const generatedAdminToken = !config.ANALYST_ADMIN_TOKEN;
  if (generatedAdminToken) config.ANALYST_ADMIN_TOKEN = randomBytes(24).toString('base64url');

  // Probes answer (not ready, with why) while the read models are rebuilt from the log.
  const app = await createHttpApp(StandaloneModule.forRoot(config, {}, logger), {
    logger,
    startupProbes: { port: config.PORT, host: config.HOST },
  });
  // Only when asked (npm start asks unless ANALYST_DEMO=0): a demo key is a full-scope credential.
  const seed = config.ANALYST_DEMO ? await app.get(DemoSeeder).seedIfEmpty() : null;
  await app.listen({ port: config.PORT, host: config.HOST });
  const base = `http://127.0.0.1:${config.PORT}/analyst/v1`;

  const lines = [
    `Analyst standalone is listening on ${base} (data in ${config.ANALYST_DATA_DIR})`,
    `API reference: ${base}/docs (OpenAPI document: ${base}/openapi.json)`,
  ];
  if (seed?.key) {
    lines.push(`Demo team: ${seed.teamId}`, `Demo API key (every scope; shown once): ${seed.key}`);
    lines.push(`Try: curl -H "Authorization: Bearer ${seed.key}" ${base}/me`);
  } else if (config.ANALYST_DEMO) {
    lines.push(
      'Demo team already exists; its key was printed at first start (or set ANALYST_DEMO_KEY on a fresh data dir).',
    );
  } else {
    lines.push(
      'No demo team (ANALYST_DEMO is not 1): create teams and keys through /admin/v1 or `npm run analyst -- teams …`.',
    );
  }
  if (generatedAdminToken)
    lines.push(`Admin token for /admin/v1 (generated for this run): ${config.ANALYST_ADMIN_TOKEN}`);
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  if (logger) logger.fatal({ err: error }, 'standalone failed to start');
  else console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
