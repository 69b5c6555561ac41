import { FixedClock } from '@analyst/platform';
import { readTeamCredits, readTeamCreditsAt } from '@analyst/ledger-read';
import { ingestTest, LINKS, type IngestTest } from './ingest-fixture';

/**
 * The fund pre-check (`FundCheck.canFundOne`) at the turn of a month: the team's stored balances
 * still belong to December until its first January ledger command (or the scheduler) writes the
 * MAP reset, but the pre-check must already count January's MAPs.
 */
describe('POST /content/posts/add at the turn of the month', () => {
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest({ clock: new FixedClock('2025-12-30T10:00:00.000Z') })));
  afterAll(() => f.close());

  it('accepts a post in January for a team that ended December with 0 MAPs, before any MAP reset is written', async () => {
    const teamId = await f.team('scale', { maps: 2 });
    const { key } = await f.key(teamId);
    // December: both MAPs go to posts; a third post cannot be funded.
    expect((await f.post('/content/posts/add', key, { links: [LINKS.x(901), LINKS.x(903)] })).status).toBe(
      202,
    );
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 0, reserved: 0 });
    expect((await f.post('/content/posts/add', key, { links: [LINKS.x(902)] })).status).toBe(402);

    f.clock.set('2026-01-01T00:00:30.000Z');
    const ledgerEvents = async () => f.events.readStream(`ledger-${teamId}`);
    const before = await ledgerEvents();
    expect(
      before.some((e) => e.type === 'MapsReset' && (e.data as { month: string }).month === '2026-01'),
    ).toBe(false);
    // The stored figures are December's; the balance as of the clock is January's (what GET /team should show).
    expect(await readTeamCredits(f.store, teamId)).toEqual({ maps: 0, adhoc: 0, reserved: 0 });
    expect(await readTeamCreditsAt(f.store, teamId, f.clock.now())).toEqual({
      maps: 2,
      adhoc: 0,
      reserved: 0,
    });
    // GET /team shows January's MAPs already, before any reset is written.
    expect((await f.get('/team', key)).body.data.credits).toEqual({ maps: 2, adhoc: 0, reserved: 0 });
    expect((await ledgerEvents()).length).toBe(before.length);

    const res = await f.post('/content/posts/add', key, { links: [LINKS.x(902)] });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      counts: { requested: 1, accepted: 1, rejected: 0 },
      credits: { source: 'auto', perPost: 1, reserved: 1 },
    });
    // The reserve wrote January's reset first, then drew the post's credit from the new MAPs.
    const written = (await ledgerEvents()).slice(before.length).map((e) => ({ type: e.type, data: e.data }));
    expect(written.slice(0, 2)).toEqual([
      {
        type: 'MapsReset',
        data: {
          commandId: 'maps-reset-2026-01',
          month: '2026-01',
          previousMonth: '2025-12',
          expired: 0,
          granted: 2,
        },
      },
      {
        type: 'CreditsReserved',
        data: expect.objectContaining({
          month: '2026-01',
          fundedUnits: 1,
          amount: 1,
          fromMaps: 1,
          fromAdhoc: 0,
        }),
      },
    ]);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 1, adhoc: 0, reserved: 0 });
    const team = await f.get('/team', key);
    expect(team.status).toBe(200);
    expect(team.body.data.credits).toEqual({ maps: 1, adhoc: 0, reserved: 0 });
  });
});
