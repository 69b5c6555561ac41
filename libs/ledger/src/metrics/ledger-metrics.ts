import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Counter, Gauge } from 'prom-client';
import {
  CLOCK,
  HttpMetrics,
  PeriodicGauges,
  READ_STORE,
  counterOn,
  gaugeOn,
  type Clock,
  type ReadStore,
} from '@analyst/platform';
import { summarizeOpenReservations } from './open-reservations';

/** How often the open-reservation gauges are recomputed: a read-model query, so not per scrape. */
export const LEDGER_METRICS_REFRESH_MS = 15_000;
export const LEDGER_METRICS_OPTIONS = Symbol('LedgerMetricsOptions');

export interface LedgerMetricsOptions {
  refreshMs?: number;
}

/** Command types the handler serves; anything else is reported as `unknown` to bound label values. */
const COMMAND_TYPES = new Set(['ReserveCredits', 'SettleCredits', 'RefundCredits', 'GrantCredits']);

/**
 * Ledger metrics on the process's registry: open reservations and the oldest one's age (every
 * reservation must end within about 1.25 × ANALYST_QUEUING_RESUME_AFTER_MS plus processing), and
 * ledger command errors by code. Without HttpMetrics (CLI contexts) it records nothing.
 */
@Injectable()
export class LedgerMetrics extends PeriodicGauges {
  private readonly openReservations: Gauge | null = null;
  private readonly oldestOpenReservation: Gauge | null = null;
  private readonly commandErrors: Counter<'command' | 'code'> | null = null;

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() httpMetrics?: HttpMetrics,
    @Optional() @Inject(LEDGER_METRICS_OPTIONS) options: LedgerMetricsOptions = {},
  ) {
    super(
      options.refreshMs ?? LEDGER_METRICS_REFRESH_MS,
      new Logger('LedgerMetrics'),
      'open-reservation metrics',
    );
    const registry = httpMetrics?.registry;
    if (!registry) return;
    this.openReservations = gaugeOn(registry, {
      name: 'analyst_ledger_open_reservations',
      help: 'Credit reservations neither settled nor refunded, over every team',
    });
    this.oldestOpenReservation = gaugeOn(registry, {
      name: 'analyst_ledger_oldest_open_reservation_seconds',
      help: 'Age of the oldest open credit reservation; 0 when none is open',
    });
    this.commandErrors = counterOn(registry, {
      name: 'analyst_ledger_command_errors_total',
      help: 'Ledger commands answered with a rule error (by its code) or failed (code "internal")',
      labelNames: ['command', 'code'],
    });
  }

  protected active(): boolean {
    return this.openReservations !== null;
  }

  /** Recomputes the reservation gauges now (the timer calls this). */
  async refresh(): Promise<void> {
    if (!this.openReservations || !this.oldestOpenReservation) return;
    const summary = await summarizeOpenReservations(this.store, this.clock.now());
    this.openReservations.set(summary.count);
    this.oldestOpenReservation.set(summary.oldestAgeSeconds);
  }

  commandError(command: unknown, code: string): void {
    const type = typeof command === 'string' && COMMAND_TYPES.has(command) ? command : 'unknown';
    this.commandErrors?.inc({ command: type, code });
  }
}
