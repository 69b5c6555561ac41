/**
 * The provider calls of the process managers: `call` once, then once more after each wait of `waits`
 * (their backoff option) while it throws. `onFailure` sees every error with its 0-based attempt; when
 * the last attempt has failed, the answer is `giveUp`'s, given that error and the number of attempts.
 */
export async function retryAfterWaits<T, G>(
  waits: readonly number[],
  call: () => Promise<T>,
  giveUp: (error: unknown, attempts: number) => G,
  onFailure?: (error: unknown, attempt: number) => void,
): Promise<T | G> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      onFailure?.(error, attempt);
      if (attempt >= waits.length) return giveUp(error, attempt + 1);
      await new Promise((r) => setTimeout(r, waits[attempt]));
    }
  }
}
