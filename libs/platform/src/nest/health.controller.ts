import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, type HealthIndicatorResult } from '@nestjs/terminus';
import { MESSAGE_BUS, type MessageBus } from '../bus/message-bus.port';
import { READ_STORE, type ReadStore } from '../read-store/read-store.port';
import { HealthRegistry } from './health-registry';
import { ProjectionService } from './projection.service';

function describe(reports: { name: string; detail?: string }[]): string {
  return reports.map((r) => (r.detail ? `${r.name} (${r.detail})` : r.name)).join('; ');
}

/** Liveness says the process answers; readiness says its stores answer and read models caught up. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly projections: ProjectionService,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly registry: HealthRegistry,
  ) {}

  @Get('healthz')
  @HealthCheck()
  live() {
    return this.health.check([
      async (): Promise<HealthIndicatorResult> => ({ process: { status: 'up' } }),
      async (): Promise<HealthIndicatorResult> => {
        const dead = this.registry.notLive();
        if (dead.length > 0) throw new Error(`cannot recover without a restart: ${describe(dead)}`);
        return { components: { status: 'up' } };
      },
    ]);
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
      async (): Promise<HealthIndicatorResult> => {
        const failing = this.registry.notReady();
        if (failing.length > 0) throw new Error(`not ready: ${describe(failing)}`);
        return { components: { status: 'up' } };
      },
    ]);
  }
}
