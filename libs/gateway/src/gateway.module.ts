import {
  amendOpenApi,
  ANALYST_CONFIG,
  CLOCK,
  type Clock,
  HttpMetrics,
  READ_STORE,
  type AnalystConfig,
  type MongoReadStore,
  type ReadStore,
} from '@analyst/platform';
import { policiesIntoOpenApi } from './auth/openapi-policies';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AdminKeysController } from './admin/admin-keys.controller';
import { AdminTeamsController } from './admin/admin-teams.controller';
import { GatewayPipeline } from './auth/gateway-pipeline';
import { GatewayGuard } from './auth/gateway.guard';
import { IdentityCache } from './identity/identity-cache';
import { ApiKeyCommands } from './identity/api-key-commands';
import { IdentityService } from './identity/identity.service';
import { TeamCommands } from './identity/team-commands';
import { GatewayHooks } from './limits/gateway-hooks';
import { MemoryRateCounters } from './limits/memory-rate-counters';
import { MongoRateCounters } from './limits/mongo-rate-counters';
import { OpenStreamGuard } from './limits/open-stream.guard';
import { OpenStreams, maxStreamsPerKeyFromEnv, registerOpenStreamMetrics } from './limits/open-streams';
import { RATE_COUNTERS } from './limits/rate-counters';
import { RateCounterSweeper } from './limits/rate-counter-sweeper';
import { RateLimitService } from './limits/rate-limit.service';
import { MeController } from './public/me.controller';
import { TeamController } from './public/team.controller';
import { GATEWAY_STATE_DB, GatewayStateDb } from './state/gateway-state-db';
import { UsageRecorder } from './usage/usage-recorder';
import { ReadStoreUsageStore, SqliteUsageStore, USAGE_STORE } from './usage/usage-store';

/**
 * Teams, keys, authentication, scopes, limits and the admin API. Mounting it puts every route under
 * `/analyst/v1` behind the gateway guard. Standalone keeps rate counters and usage in the data
 * dir's gateway state db (they outlive restarts); `distributed()` keeps both in MongoDB instead.
 */

// Operation ids and scopes from the route table, in every document an app with the gateway serves.
amendOpenApi(policiesIntoOpenApi);

@Module({
  controllers: [MeController, TeamController, AdminTeamsController, AdminKeysController],
  providers: [
    TeamCommands,
    ApiKeyCommands,
    IdentityService,
    IdentityCache,
    RateLimitService,
    GatewayPipeline,
    GatewayHooks,
    UsageRecorder,
    {
      provide: RATE_COUNTERS,
      inject: [GATEWAY_STATE_DB, CLOCK],
      useFactory: (state: GatewayStateDb, clock: Clock) => new MemoryRateCounters(state, 1000, clock),
    },
    {
      provide: USAGE_STORE,
      inject: [GATEWAY_STATE_DB],
      useFactory: (state: GatewayStateDb) => new SqliteUsageStore(state),
    },
    { provide: APP_GUARD, useClass: GatewayGuard },
    // After the gateway guard, which finds the key: the open-stream cap per key (per replica).
    {
      provide: OpenStreams,
      inject: [{ token: HttpMetrics, optional: true }],
      useFactory: (metrics?: HttpMetrics) => {
        const streams = new OpenStreams(maxStreamsPerKeyFromEnv());
        if (metrics) registerOpenStreamMetrics(metrics.registry, streams);
        return streams;
      },
    },
    { provide: APP_GUARD, useClass: OpenStreamGuard },
    // Last, so its shutdown hook (closing the file) runs after the stores' final saves.
    {
      provide: GATEWAY_STATE_DB,
      inject: [ANALYST_CONFIG],
      useFactory: (config: AnalystConfig) => GatewayStateDb.open(config.ANALYST_DATA_DIR),
    },
  ],
  exports: [IdentityService, RateLimitService, GatewayPipeline, UsageRecorder],
})
export class GatewayModule {
  /** The gateway of the distributed topology: rate counters in MongoDB, shared by every replica and swept every minute. */
  static distributed(): DynamicModule {
    return {
      module: GatewayModule,
      providers: [
        // One document per key and day: a request's charge is one atomic round trip (see MongoRateCounters).
        {
          provide: RATE_COUNTERS,
          useFactory: (store: ReadStore) => MongoRateCounters.connect((store as MongoReadStore).database),
          inject: [READ_STORE],
        },
        RateCounterSweeper,
        {
          provide: USAGE_STORE,
          inject: [READ_STORE],
          useFactory: (store: ReadStore) => ReadStoreUsageStore.open(store),
        },
        // No local state file: a gateway pod's disk is not where shared counters live.
        { provide: GATEWAY_STATE_DB, useValue: null },
      ],
    };
  }
}
