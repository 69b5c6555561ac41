import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { GatewayModule, GatewayProxyModule, type UpstreamService } from '@analyst/gateway';
import { runService } from '@analyst/platform';
import { DistributedDemoSeeder } from './distributed-demo-seeder';

const SERVICES: UpstreamService[] = ['ingest', 'ledger', 'analysis', 'sampling'];

function upstreams(): Record<UpstreamService, string> {
  const missing = SERVICES.filter((s) => !process.env[`ANALYST_UPSTREAM_${s.toUpperCase()}`]);
  if (missing.length > 0) {
    console.error(
      `invalid configuration:\n  ${missing.map((s) => `ANALYST_UPSTREAM_${s.toUpperCase()}: required (e.g. http://${s}:8080)`).join('\n  ')}`,
    );
    process.exit(2);
  }
  return Object.fromEntries(
    SERVICES.map((s) => [s, process.env[`ANALYST_UPSTREAM_${s.toUpperCase()}`]!.replace(/\/$/, '')]),
  ) as Record<UpstreamService, string>;
}

@Module({ imports: [GatewayModule.distributed()], providers: [DistributedDemoSeeder] })
class GatewayAppModule {}

/** The public entry point: authentication, scopes, limits, /me, /team, admin; everything else forwarded. */
void runService({
  service: 'gateway',
  imports: (config) => [
    GatewayAppModule,
    // Validated with the other variables (1,000–600,000 ms); long enough for a 100-link add.
    GatewayProxyModule.forRoot({ upstreams: upstreams(), timeoutMs: config.ANALYST_UPSTREAM_TIMEOUT_MS }),
  ],
  beforeListen: async (app) => {
    const seeded = await app.get(DistributedDemoSeeder).seedIfEmpty();
    if (seeded)
      process.stdout.write(
        `\nDemo team: ${seeded.teamId}\nDemo API key (every scope; shown once): ${seeded.key}\n\n`,
      );
  },
});
