import { Injectable, Optional } from '@nestjs/common';
import type { Counter, Gauge } from 'prom-client';
import { HttpMetrics, counterOn, gaugeOn } from '@analyst/platform';
import type { FaultKind, ProviderTelemetry } from '@analyst/provider-core';
import { nextQuotaReset } from '@analyst/provider-youtube';

/** A Google Cloud project's default daily YouTube Data API quota; `remaining` is counted against it. */
export const YOUTUBE_DAILY_QUOTA = 10_000;

/**
 * Provider traffic on the process's /metrics: calls per endpoint, errors per fault kind, YouTube
 * quota units spent (and what is left of the daily quota, as spent by this process since the last
 * Pacific midnight), Reddit's rate-limit headroom. Without HttpMetrics it records nothing.
 */
@Injectable()
export class ProviderMetrics implements ProviderTelemetry {
  private readonly calls: Counter<'platform' | 'endpoint'> | null = null;
  private readonly errors: Counter<'platform' | 'kind'> | null = null;
  private readonly quota: Counter<'platform'> | null = null;
  private readonly quotaRemaining: Gauge<'platform'> | null = null;
  private readonly rateRemaining: Gauge<'platform'> | null = null;
  private readonly rateReset: Gauge<'platform'> | null = null;
  private spentToday = 0;
  private windowEnds = 0;

  constructor(@Optional() httpMetrics?: HttpMetrics) {
    const registry = httpMetrics?.registry;
    if (!registry) return;
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      counterOn<L>(registry, { name, help, labelNames });
    const gauge = (name: string, help: string) =>
      gaugeOn<'platform'>(registry, { name, help, labelNames: ['platform'] });
    this.calls = counter('analyst_provider_calls_total', 'HTTP calls to a platform API, per endpoint', [
      'platform',
      'endpoint',
    ]);
    this.errors = counter(
      'analyst_provider_errors_total',
      'Failed platform calls after retries, per fault kind (quota, transient, auth, gone, invalid)',
      ['platform', 'kind'],
    );
    this.quota = counter('analyst_provider_quota_units_total', 'YouTube Data API quota units spent', [
      'platform',
    ]);
    this.quotaRemaining = gauge(
      'analyst_provider_quota_units_remaining',
      `YouTube quota units left today of ${YOUTUBE_DAILY_QUOTA}, counting this process's calls since midnight Pacific`,
    );
    this.rateRemaining = gauge(
      'analyst_provider_ratelimit_remaining',
      'Reddit X-Ratelimit-Remaining after the last call',
    );
    this.rateReset = gauge(
      'analyst_provider_ratelimit_reset_seconds',
      'Reddit X-Ratelimit-Reset after the last call',
    );
  }

  call(platform: string, endpoint: string): void {
    this.calls?.inc({ platform, endpoint });
  }

  error(platform: string, kind: FaultKind): void {
    this.errors?.inc({ platform, kind });
  }

  quotaSpent(platform: string, units: number, now = new Date()): void {
    this.quota?.inc({ platform }, units);
    if (now.getTime() >= this.windowEnds) {
      this.spentToday = 0;
      this.windowEnds = nextQuotaReset(now).getTime();
    }
    this.spentToday += units;
    this.quotaRemaining?.set({ platform }, Math.max(0, YOUTUBE_DAILY_QUOTA - this.spentToday));
  }

  rateLimit(platform: string, remaining: number, resetSeconds: number): void {
    this.rateRemaining?.set({ platform }, remaining);
    this.rateReset?.set({ platform }, resetSeconds);
  }
}
