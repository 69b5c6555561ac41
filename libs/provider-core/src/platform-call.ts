import { ProviderFault } from './provider-fault';
import type { ProviderTelemetry } from './provider-telemetry';
import {
  DEFAULT_RETRY_POLICY,
  REAL_RETRY_ENV,
  type RetryEnv,
  type RetryPolicy,
  withRetries,
} from './retry-policy';

/** How an API client makes one call: its platform's name, telemetry and retry settings. */
export interface PlatformCallSettings {
  platform: string;
  telemetry: ProviderTelemetry;
  /** False when the caller retries itself (account discovery counts its own attempts). */
  retries: boolean;
  retry?: RetryPolicy;
  retryEnv?: RetryEnv;
}

/**
 * One call to a platform's API: transient faults retried per `retry` (the default policy when
 * none is set, none at all when `retries` is false), and the fault that ends it, if any, reported
 * to telemetry by kind before it is thrown.
 */
export async function platformCall<T>(call: () => Promise<T>, settings: PlatformCallSettings): Promise<T> {
  const policy = settings.retries
    ? (settings.retry ?? DEFAULT_RETRY_POLICY)
    : { ...DEFAULT_RETRY_POLICY, retries: 0 };
  try {
    return await withRetries(call, policy, settings.retryEnv ?? REAL_RETRY_ENV);
  } catch (error) {
    if (error instanceof ProviderFault) settings.telemetry.error(settings.platform, error.kind);
    throw error;
  }
}
