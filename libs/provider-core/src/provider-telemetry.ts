import type { FaultKind } from './provider-fault';

/**
 * What an adapter reports about its traffic; the ingest service turns it into Prometheus metrics.
 * Adapters never depend on prom-client, so they run the same in a CLI or a test.
 */
export interface ProviderTelemetry {
  call(platform: string, endpoint: string): void;
  error(platform: string, kind: FaultKind): void;
  /** YouTube: quota units a call cost (the API charges even failed calls). */
  quotaSpent(platform: string, units: number): void;
  /** Reddit: `X-Ratelimit-Remaining` and seconds to `X-Ratelimit-Reset` after a call. */
  rateLimit(platform: string, remaining: number, resetSeconds: number): void;
}

export const NO_TELEMETRY: ProviderTelemetry = {
  call: () => undefined,
  error: () => undefined,
  quotaSpent: () => undefined,
  rateLimit: () => undefined,
};

/** Counts in memory: the CLI prints these, tests assert them. */
export class TelemetryTally implements ProviderTelemetry {
  calls = new Map<string, number>();
  errors = new Map<string, number>();
  quotaUnits = 0;
  lastRateLimit: { remaining: number; resetSeconds: number } | null = null;

  call(platform: string, endpoint: string): void {
    const key = `${platform} ${endpoint}`;
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
  }

  error(platform: string, kind: FaultKind): void {
    const key = `${platform} ${kind}`;
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
  }

  quotaSpent(_platform: string, units: number): void {
    this.quotaUnits += units;
  }

  rateLimit(_platform: string, remaining: number, resetSeconds: number): void {
    this.lastRateLimit = { remaining, resetSeconds };
  }
}
