import { ProviderFault } from './provider-fault';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** First wait; doubles each retry up to maxMs. */
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, baseMs: 250, maxMs: 4_000 };

/** Injected in tests so waits and jitter are exact. */
export interface RetryEnv {
  random(): number;
  sleep(ms: number): Promise<void>;
}

export const REAL_RETRY_ENV: RetryEnv = {
  random: () => Math.random(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** "Full jitter" backoff: a uniform wait in [0, min(max, base·2^attempt)], so retrying callers spread out. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number): number {
  return Math.floor(random() * Math.min(policy.maxMs, policy.baseMs * 2 ** attempt));
}

/** Runs `call`, retrying only `transient` faults; anything else, or the last transient fault, is thrown. */
export async function withRetries<T>(
  call: () => Promise<T>,
  policy: RetryPolicy,
  env: RetryEnv = REAL_RETRY_ENV,
  onRetry?: (fault: ProviderFault, attempt: number) => void,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ProviderFault) || error.kind !== 'transient' || attempt >= policy.retries)
        throw error;
      onRetry?.(error, attempt);
      await env.sleep(backoffMs(policy, attempt, env.random));
    }
  }
}
