import type { Replica } from './replica-discovery';

/** What one probe of a replica's /readyz found. */
export type ProbeResult = 'ready' | 'not_ready' | 'refused';

export type ProbeReplica = (replica: Replica, timeoutMs: number) => Promise<ProbeResult>;

/** Connection errors that happen before anything is sent: the replica is not there. */
export const CONNECT_REFUSALS: ReadonlySet<string> = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);

/** GET <base>/readyz: 200 is ready; another status, a timeout or a reset is not ready; a refused connection is refused. */
export const probeReadyz: ProbeReplica = async (replica, timeoutMs) => {
  try {
    const response = await fetch(`${replica.base}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.status === 200 ? 'ready' : 'not_ready';
  } catch (raw) {
    const code = ((raw as Error & { cause?: { code?: string } }).cause ?? {}).code;
    return code !== undefined && CONNECT_REFUSALS.has(code) ? 'refused' : 'not_ready';
  }
};

/** What the gateway knows of a replica: serving, answering but not (yet) ready or too slow, or not there. */
export type ReplicaState = 'ready' | 'not_ready' | 'down';

/**
 * Each replica's state from its last probe: 200 is ready, a refused connection is down, anything
 * else (another status, a timeout) is not ready, and so is a replica never probed. A refused forward
 * marks its replica down at once, without waiting for the next probe.
 */
export class ReplicaReadiness {
  private readonly states = new Map<string, ReplicaState>();
  /** The probe round during which each replica was last refused, so an older probe cannot revive it. */
  private readonly downSince = new Map<string, number>();
  private probes = 0;

  constructor(
    private readonly probe: ProbeReplica,
    private readonly timeoutMs: number,
  ) {}

  state(replica: Replica): ReplicaState {
    return this.states.get(replica.id) ?? 'not_ready';
  }

  markDown(replica: Replica): void {
    this.states.set(replica.id, 'down');
    this.downSince.set(replica.id, this.probes);
  }

  /** Forgets every replica not in `replicas` (gone from DNS or from the list). */
  retain(replicas: readonly Replica[]): void {
    const listed = new Set(replicas.map((r) => r.id));
    for (const id of [...this.states.keys()]) if (!listed.has(id)) this.states.delete(id);
    for (const id of [...this.downSince.keys()]) if (!listed.has(id)) this.downSince.delete(id);
  }

  /** Probes the replicas at once and records what each answered. */
  async probeAll(replicas: readonly Replica[]): Promise<void> {
    const round = ++this.probes;
    await Promise.all(
      replicas.map(async (replica) => {
        const result = await this.probe(replica, this.timeoutMs);
        // Refused by a forward after this probe was sent: the older answer does not bring it back.
        const refusedSince = this.downSince.get(replica.id);
        if (result !== 'refused' && refusedSince !== undefined && refusedSince >= round) return;
        this.states.set(
          replica.id,
          result === 'ready' ? 'ready' : result === 'refused' ? 'down' : 'not_ready',
        );
      }),
    );
  }
}
