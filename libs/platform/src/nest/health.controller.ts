import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { MESSAGE_BUS, type MessageBus, READ_STORE, type ReadStore } from '@analyst/eventsourcing';
import { HealthRegistry } from './health-registry';
import { ProjectionService } from './projection.service';

type Check = [name: string, run: () => Promise<void> | void];
type Outcome = Record<string, { status: 'up' } | { status: 'down'; message: string }>;
const UP = { status: 'up' } as const;
/** `/healthz` while nothing is dead: the answer `send` builds for it, built once. */
const LIVE = {
  status: 'ok',
  info: { process: UP, components: UP },
  error: {},
  details: { process: UP, components: UP },
} as const;

function describe(reports: { name: string; detail?: string }[]): string {
  return reports.map((r) => (r.detail ? `${r.name} (${r.detail})` : r.name)).join('; ');
}

/**
 * Liveness (`/healthz`) fails only when a component says it cannot recover without a restart, so
 * Kubernetes restarts the process; readiness (`/readyz`) fails while the stores do not answer, the
 * read models are catching up, or any registered component (projection, consumer group, relay) is
 * dead, stuck or reconnecting. Either answers 503 with every failing check named, 200 otherwise.
 * The body keeps the shape of @nestjs/terminus: `{ status, info, error, details }`.
 */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly projections: ProjectionService,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly registry: HealthRegistry,
  ) {}

  @Get('healthz')
  live(@Res() reply: FastifyReply): void {
    // Synchronous: probes hit it every few seconds, and a dead component is all it looks for.
    const dead = this.registry.notLive();
    if (dead.length === 0) {
      void reply.status(200).send(LIVE);
      return;
    }
    const message = `cannot recover without a restart: ${describe(dead)}`;
    this.send(reply, { process: UP }, { components: { status: 'down', message } });
  }

  @Get('readyz')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    await this.answer(reply, [
      ['readStore', () => this.store.ping()],
      [
        'readModels',
        () => {
          if (!this.projections.ready) throw new Error('read models are still rebuilding');
        },
      ],
      [
        'bus',
        () => {
          if (this.bus.isReady && !this.bus.isReady())
            throw new Error('bus consumers are not all joined and fetching');
        },
      ],
      [
        'components',
        () => {
          const failing = this.registry.notReady();
          if (failing.length > 0) throw new Error(`not ready: ${describe(failing)}`);
        },
      ],
    ]);
  }

  private async answer(reply: FastifyReply, checks: Check[]): Promise<void> {
    const info: Outcome = {};
    const error: Outcome = {};
    for (const [name, run] of checks) {
      try {
        await run();
        info[name] = { status: 'up' };
      } catch (e) {
        error[name] = { status: 'down', message: e instanceof Error ? e.message : String(e) };
      }
    }
    this.send(reply, info, error);
  }

  private send(reply: FastifyReply, info: Outcome, error: Outcome): void {
    const ok = Object.keys(error).length === 0;
    void reply
      .status(ok ? 200 : 503)
      .send({ status: ok ? 'ok' : 'error', info, error, details: { ...info, ...error } });
  }
}
