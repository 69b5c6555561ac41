export const NOTIFIER_DELIVERY_OPTIONS = Symbol('NotifierDeliveryOptions');

export interface NotifierDeliveryOptions {
  /** How often the engine ticks when no append wakes it: claims, new deliveries, due retries. */
  tickMs: number;
  /** How long to wait before trying to start again when the stores did not answer at start (default 5 s). */
  startRetryMs?: number;
}

export const DEFAULT_NOTIFIER_TICK_MS = 250;
const MIN_TICK_MS = 10;
const MAX_TICK_MS = 60_000;

/** A variable of the notifier's delivery that is not what it must be. */
export class NotifierConfigError extends Error {
  override readonly name = 'NotifierConfigError';
}

/** The delivery's variables, read once at start; a bad value stops the start with the variable named. */
export function notifierDeliveryOptionsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): NotifierDeliveryOptions {
  const raw = env.ANALYST_NOTIFIER_TICK_MS;
  if (raw === undefined || raw === '') return { tickMs: DEFAULT_NOTIFIER_TICK_MS };
  const tickMs = Number(raw);
  if (!/^\d+$/.test(raw) || tickMs < MIN_TICK_MS || tickMs > MAX_TICK_MS)
    throw new NotifierConfigError(
      `ANALYST_NOTIFIER_TICK_MS must be an integer number of milliseconds from ${MIN_TICK_MS} to ${MAX_TICK_MS}, got "${raw}"`,
    );
  return { tickMs };
}
