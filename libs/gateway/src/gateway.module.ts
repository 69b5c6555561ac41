import { Module, type DynamicModule } from '@nestjs/common';
import { READ_STORE, type MongoReadStore, type ReadStore } from '@analyst/platform';
import { APP_GUARD } from '@nestjs/core';
import { AdminKeysController } from './admin/admin-keys.controller';
import { AdminTeamsController } from './admin/admin-teams.controller';
import { GatewayPipeline } from './auth/gateway-pipeline';
import { GatewayGuard } from './auth/gateway.guard';
import { IdentityCache } from './identity/identity-cache';
import { IdentityService } from './identity/identity.service';
import { GatewayHooks } from './limits/gateway-hooks';
import { LIMITER_STORE, MemoryLimiterStore } from './limits/limiter-store';
import { MongoLimiterStore } from './limits/mongo-limiter-store';
import { RateLimitService } from './limits/rate-limit.service';
import { MeController } from './public/me.controller';
import { TeamController } from './public/team.controller';
import { UsageRecorder } from './usage/usage-recorder';

/**
 * Teams, keys, authentication, scopes, limits and the admin API. Mounting it puts every route under
 * `/analyst/v1` behind the gateway guard. Provide LIMITER_STORE differently (RateLimiterMongo) in
 * the distributed topology.
 */
@Module({
  controllers: [MeController, TeamController, AdminTeamsController, AdminKeysController],
  providers: [
    IdentityService,
    IdentityCache,
    RateLimitService,
    GatewayPipeline,
    GatewayHooks,
    UsageRecorder,
    { provide: LIMITER_STORE, useClass: MemoryLimiterStore },
    { provide: APP_GUARD, useClass: GatewayGuard },
  ],
  exports: [IdentityService, RateLimitService, GatewayPipeline, UsageRecorder],
})
export class GatewayModule {
  /** The gateway of the distributed topology: rate counters in MongoDB, shared by every replica. */
  static distributed(): DynamicModule {
    return {
      module: GatewayModule,
      providers: [
        {
          provide: LIMITER_STORE,
          useFactory: (store: ReadStore) => MongoLimiterStore.connect((store as MongoReadStore).database),
          inject: [READ_STORE],
        },
      ],
    };
  }
}
