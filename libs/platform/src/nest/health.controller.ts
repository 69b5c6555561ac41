import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, type HealthIndicatorResult } from '@nestjs/terminus';
import { MESSAGE_BUS, type MessageBus } from '../bus/message-bus.port';
import { READ_STORE, type ReadStore } from '../read-store/read-store.port';
import { ProjectionService } from './projection.service';

/** Liveness says the process answers; readiness says its stores answer and read models caught up. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly projections: ProjectionService,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
  ) {}

  @Get('healthz')
  @HealthCheck()
  live() {
    return this.health.check([async (): Promise<HealthIndicatorResult> => ({ process: { status: 'up' } })]);
  }

  @Get('readyz')
  @HealthCheck()
  ready() {
    return this.health.check([
      async (): Promise<HealthIndicatorResult> => {
        await this.store.ping();
        return { readStore: { status: 'up' } };
      },
      async (): Promise<HealthIndicatorResult> => {
        if (!this.projections.ready) throw new Error('read models are still rebuilding');
        return { readModels: { status: 'up' } };
      },
      async (): Promise<HealthIndicatorResult> => {
        if (this.bus.isReady && !this.bus.isReady()) throw new Error('bus consumers are still joining their groups');
        return { bus: { status: 'up' } };
      },
    ]);
  }
}
