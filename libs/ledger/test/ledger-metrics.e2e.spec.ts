import { HttpMetrics } from '@analyst/platform';
import { LedgerMetrics } from '../src/metrics/ledger-metrics';
import { ledgerKit, type LedgerKit } from './ledger-test-kit';

async function value(
  metrics: HttpMetrics,
  name: string,
  labels: Record<string, string> = {},
): Promise<number | undefined> {
  const metric = metrics.registry.getSingleMetric(name);
  if (!metric) throw new Error(`${name} is not registered`);
  const { values } = await metric.get();
  const hit = values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return hit?.value;
}

describe('ledger metrics', () => {
  let k: LedgerKit;
  let http: HttpMetrics;
  let metrics: LedgerMetrics;

  beforeEach(async () => {
    k = await ledgerKit();
    http = k.t.app.get(HttpMetrics);
    metrics = k.t.app.get(LedgerMetrics);
    await k.createTeam('team_a');
    await k.createTeam('team_b');
  });
  afterEach(() => k.close());

  it('reports no open reservation as 0 and 0 seconds', async () => {
    await metrics.refresh();
    expect(await value(http, 'analyst_ledger_open_reservations')).toBe(0);
    expect(await value(http, 'analyst_ledger_oldest_open_reservation_seconds')).toBe(0);
  });

  it('counts open reservations over every team and ages the oldest by the injected clock', async () => {
    await k.request('ReserveCredits', {
      teamId: 'team_a',
      commandId: 'r1',
      reservationId: 'res1',
      units: 2,
      unitCost: 1,
      source: 'auto',
    });
    k.clock.advance(10 * 60_000);
    await k.request('ReserveCredits', {
      teamId: 'team_b',
      commandId: 'r2',
      reservationId: 'res2',
      units: 1,
      unitCost: 1,
      source: 'auto',
    });
    await k.request('ReserveCredits', {
      teamId: 'team_b',
      commandId: 'r3',
      reservationId: 'res3',
      units: 1,
      unitCost: 1,
      source: 'auto',
    });
    k.clock.advance(5 * 60_000);
    await k.ledger.caughtUp();
    await metrics.refresh();
    expect(await value(http, 'analyst_ledger_open_reservations')).toBe(3);
    expect(await value(http, 'analyst_ledger_oldest_open_reservation_seconds')).toBe(900);

    // The oldest settles: the next oldest (5 minutes) is what is left to age.
    await k.request('SettleCredits', {
      teamId: 'team_a',
      commandId: 's1',
      reservationId: 'res1',
      consumed: 2,
    });
    await k.ledger.caughtUp();
    await metrics.refresh();
    expect(await value(http, 'analyst_ledger_open_reservations')).toBe(2);
    expect(await value(http, 'analyst_ledger_oldest_open_reservation_seconds')).toBe(300);
  });

  it('counts ledger command errors by command and code, as the /metrics text shows them', async () => {
    const reply = await k.request('SettleCredits', {
      teamId: 'team_a',
      commandId: 's9',
      reservationId: 'nope',
      consumed: 1,
    });
    expect(reply).toEqual({ error: { code: 'reservation_not_found', message: expect.any(String) } });
    await k.request('SettleCredits', {
      teamId: 'team_a',
      commandId: 's10',
      reservationId: 'nope',
      consumed: 1,
    });
    await k.request('Transfer' as string, { teamId: 'team_a', commandId: 'x1' });
    expect(
      await value(http, 'analyst_ledger_command_errors_total', {
        command: 'SettleCredits',
        code: 'reservation_not_found',
      }),
    ).toBe(2);
    expect(
      await value(http, 'analyst_ledger_command_errors_total', {
        command: 'unknown',
        code: 'invalid_command',
      }),
    ).toBe(1);
    const text = await http.registry.metrics();
    expect(text).toContain(
      'analyst_ledger_command_errors_total{command="SettleCredits",code="reservation_not_found",service="test"} 2',
    );
  });
});
