import 'reflect-metadata';
import { Module } from '@nestjs/common';
import {
  GatewayModule,
  GatewayProxyModule,
  UPSTREAM_SERVICES,
  maxStreamsPerKeyProblems,
  upstreamVariable,
  upstreamsFromEnv,
  type UpstreamService,
} from '@analyst/gateway';
import { runService } from '@analyst/platform';
import { DistributedDemoSeeder } from './distributed-demo-seeder';

/** Each service's replica list as written (one URL or several, comma-separated); validated at start. */
function upstreams(): Record<UpstreamService, string> {
  return Object.fromEntries(UPSTREAM_SERVICES.map((s) => [s, process.env[upstreamVariable(s)]!])) as Record<
    UpstreamService,
    string
  >;
}

@Module({ imports: [GatewayModule.distributed()], providers: [DistributedDemoSeeder] })
class GatewayAppModule {}

/** The public entry point: authentication, scopes, limits, /me, /team, admin; everything else forwarded. */
void runService({
  service: 'gateway',
  // A missing or malformed ANALYST_UPSTREAM_<SERVICE> (or stream cap) exits 2 with the other configuration problems.
  configProblems: (env) => [...upstreamsFromEnv(env).problems, ...maxStreamsPerKeyProblems(env)],
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
