import { rendezvousOrder } from './rendezvous';
import { ReplicaDiscovery, resolveWithSystem, type Replica, type ResolveHost } from './replica-discovery';
import { ReplicaReadiness, probeReadyz, type ProbeReplica } from './replica-readiness';
import type { UpstreamUrl } from './upstream-urls';
import type { UpstreamService } from './upstreams';

/** `replicas` starting at position `turn` (modulo their number), for requests spread in turn. */
function rotated(replicas: readonly Replica[], turn: number): Replica[] {
  if (replicas.length === 0) return [];
  const start = turn % replicas.length;
  return [...replicas.slice(start), ...replicas.slice(0, start)];
}

function unique(replicas: Replica[]): Replica[] {
  return [...new Map(replicas.map((r) => [r.id, r])).values()];
}

/** Services whose replicas each keep a share of the teams (their read caches); the others spread requests. */
export const TEAM_AFFINE_SERVICES: ReadonlySet<UpstreamService> = new Set(['analysis', 'sampling']);

export interface UpstreamPoolOptions {
  /** How often host names are resolved again. */
  resolveEveryMs?: number;
  /** How often every replica's /readyz is asked. */
  probeEveryMs?: number;
  /** How long a probe may take before the replica counts as not ready. */
  probeTimeoutMs?: number;
  resolve?: ResolveHost;
  probe?: ProbeReplica;
  /** Told about a lookup that failed (the replicas of that URL stay as last seen, or none for an unknown name). */
  onLookupError?: (service: UpstreamService, url: UpstreamUrl, error: Error) => void;
}

export interface UpstreamPoolCounts {
  known: number;
  ready: number;
}

interface ServicePool {
  discovery: ReplicaDiscovery;
  replicas: Replica[];
  /** Round-robin position for requests that name no team. */
  next: number;
  /** With one replica (never probed): whether its last forward was refused. */
  lastRefused: boolean;
}

/**
 * The replicas of every upstream service and the order a request tries them in. A team's requests
 * to a team-affine service go to the first ready replica in the team's rendezvous order, so each
 * replica caches its own share of the teams; requests without a team (operator routes) and those
 * to other services take the ready replicas in turn. A service with one replica is always tried,
 * as before replicas were listed: its own answer, or a refused connection, says whether it serves.
 */
export class UpstreamPool {
  private readonly services = new Map<UpstreamService, ServicePool>();
  private readonly readiness: ReplicaReadiness;
  private readonly resolveEveryMs: number;
  private readonly probeEveryMs: number;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;

  constructor(upstreams: Record<UpstreamService, readonly UpstreamUrl[]>, options: UpstreamPoolOptions = {}) {
    this.resolveEveryMs = options.resolveEveryMs ?? 5_000;
    this.probeEveryMs = options.probeEveryMs ?? 2_000;
    this.readiness = new ReplicaReadiness(options.probe ?? probeReadyz, options.probeTimeoutMs ?? 1_000);
    for (const [service, urls] of Object.entries(upstreams) as [UpstreamService, UpstreamUrl[]][]) {
      const discovery = new ReplicaDiscovery(urls, options.resolve ?? resolveWithSystem, (url, error) =>
        options.onLookupError?.(service, url, error),
      );
      this.services.set(service, { discovery, replicas: discovery.replicas(), next: 0, lastRefused: false });
    }
  }

  /** Resolves and probes once (the first requests see the replicas), then keeps doing so on timers. */
  async start(): Promise<void> {
    await this.resolveAll();
    await this.probeAll();
    this.every(this.resolveEveryMs, () => this.resolveAll());
    this.every(this.probeEveryMs, () => this.probeAll());
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
  }

  /** Resolves every service's host names again; a service whose replicas changed is probed at once. */
  async resolveAll(): Promise<void> {
    const changed: ServicePool[] = [];
    await Promise.all(
      [...this.services.values()].map(async (pool) => {
        const before = pool.replicas.map((r) => r.id).join();
        pool.replicas = await pool.discovery.refresh();
        if (pool.replicas.map((r) => r.id).join() !== before) changed.push(pool);
      }),
    );
    this.readiness.retain(this.allReplicas());
    if (changed.length > 0) await this.readiness.probeAll(this.probedReplicas(changed));
  }

  /** Probes the replicas of every service that has several (one replica is always tried: its probe would change nothing). */
  async probeAll(): Promise<void> {
    await this.readiness.probeAll(this.probedReplicas([...this.services.values()]));
  }

  /**
   * The replicas to try, in order, for a request to `service` for `teamId` (null: no team): the
   * ready ones, then those that answer but are not ready (a slow probe is not a dead replica), never
   * those that refused a connection. Empty when the service has several replicas and all refused:
   * the caller answers 503 at once.
   */
  candidates(service: UpstreamService, teamId: string | null): Replica[] {
    const pool = this.services.get(service);
    if (!pool || pool.replicas.length === 0) return [];
    if (pool.replicas.length === 1) return [...pool.replicas];
    const ready = pool.replicas.filter((r) => this.readiness.state(r) === 'ready');
    const notReady = pool.replicas.filter((r) => this.readiness.state(r) === 'not_ready');
    if (teamId && TEAM_AFFINE_SERVICES.has(service))
      return [...rendezvousOrder(teamId, ready), ...rendezvousOrder(teamId, notReady)];
    const turn = pool.next++;
    return [...rotated(ready, turn), ...rotated(notReady, turn)];
  }

  /** A forward to `replica` was refused at connect: skip it until a probe finds it ready again. */
  markRefused(service: UpstreamService, replica: Replica): void {
    this.readiness.markDown(replica);
    const pool = this.services.get(service);
    if (pool) pool.lastRefused = true;
  }

  /** A replica of `service` answered a forward (what a one-replica service's ready count goes by). */
  markAnswered(service: UpstreamService): void {
    const pool = this.services.get(service);
    if (pool) pool.lastRefused = false;
  }

  /** Replicas known and ready; a one-replica service counts its replica ready unless its last forward was refused. */
  counts(service: UpstreamService): UpstreamPoolCounts {
    const pool = this.services.get(service);
    const replicas = pool?.replicas ?? [];
    if (replicas.length === 1) return { known: 1, ready: pool!.lastRefused ? 0 : 1 };
    return {
      known: replicas.length,
      ready: replicas.filter((r) => this.readiness.state(r) === 'ready').length,
    };
  }

  serviceNames(): UpstreamService[] {
    return [...this.services.keys()];
  }

  /** Each replica once, though two services may list the same process. */
  private allReplicas(): Replica[] {
    return unique([...this.services.values()].flatMap((pool) => pool.replicas));
  }

  /** The replicas of `pools` that have several, each once. */
  private probedReplicas(pools: ServicePool[]): Replica[] {
    return unique(pools.filter((pool) => pool.replicas.length > 1).flatMap((pool) => pool.replicas));
  }

  /** Runs `work` every `ms` after the previous run ended (never two at once); the timers do not hold the process. */
  private every(ms: number, work: () => Promise<void>): void {
    const schedule = () => {
      if (this.stopped) return;
      const timer = setTimeout(() => {
        this.timers = this.timers.filter((t) => t !== timer);
        void work()
          .catch(() => undefined)
          .finally(schedule);
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    schedule();
  }
}
