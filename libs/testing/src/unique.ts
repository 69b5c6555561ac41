import { randomBytes } from 'node:crypto';

/** A name no other test run has used, so contract suites can share one real server. */
export function unique(prefix: string): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

/**
 * Polls `check` until it holds. The default bound is generous on purpose: it is how long a loaded
 * machine may take, not how long the condition should take; a condition that never holds still fails.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
  stepMs = 10,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
