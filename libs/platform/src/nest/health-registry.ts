/**
 * What a long-lived part of a process (a projection, a consumer group, a subscription, the relay)
 * says about itself. `ready: false` takes the process out of the load balancer (`/readyz` 503);
 * `live: false` means it cannot recover on its own, so the orchestrator should restart the process
 * (`/healthz` 503). A component that is retrying with backoff is not ready but still live.
 */
export interface ComponentHealth {
  ready: boolean;
  live?: boolean;
  /** Why it is not ready or not live; shown on the probe's body and in logs. */
  detail?: string;
}

export interface ComponentReport extends ComponentHealth {
  name: string;
  live: boolean;
}

/**
 * One registry per Nest app (ObservabilityModule provides it; inject `HealthRegistry`). Components register a check (called on every probe, so it must be
 * cheap and synchronous) under a stable name such as `projection:ingest` or `consumer:ledger-maps`.
 */
export class HealthRegistry {
  private readonly checks = new Map<string, () => ComponentHealth>();

  register(name: string, check: () => ComponentHealth): void {
    this.checks.set(name, check);
  }

  unregister(name: string): void {
    this.checks.delete(name);
  }

  report(): ComponentReport[] {
    const reports: ComponentReport[] = [];
    for (const [name, check] of this.checks) {
      let health: ComponentHealth;
      try {
        health = check();
      } catch (error) {
        health = { ready: false, live: false, detail: `health check threw: ${String(error)}` };
      }
      reports.push({ name, ready: health.ready, live: health.live ?? true, detail: health.detail });
    }
    return reports;
  }

  notReady(): ComponentReport[] {
    return this.report().filter((r) => !r.ready);
  }

  notLive(): ComponentReport[] {
    return this.report().filter((r) => !r.live);
  }
}
