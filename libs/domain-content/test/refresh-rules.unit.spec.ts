import { decideRefresh, type RefreshFacts } from '@analyst/domain-content';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
const post = (facts: Partial<RefreshFacts> = {}): RefreshFacts => ({
  status: 'complete',
  lastRefreshedAt: hoursAgo(48),
  lastIncludedRefreshAt: hoursAgo(48),
  ...facts,
});

describe('refresh rules', () => {
  it('skips an unreachable post', () => {
    expect(decideRefresh(post({ status: 'unreachable' }), 'enterprise', NOW)).toEqual({
      kind: 'skip',
      reason: 'unreachable',
    });
  });

  it.each(['fetching', 'queued', 'processing', 'holding'] as const)(
    'skips a %s post as already processing',
    (status) => {
      expect(decideRefresh(post({ status }), 'enterprise', NOW)).toEqual({
        kind: 'skip',
        reason: 'already_processing',
      });
    },
  );

  it('keeps the 12-hour floor from the last fetch request, and says when it ends', () => {
    expect(decideRefresh(post({ lastRefreshedAt: hoursAgo(11) }), 'enterprise', NOW)).toEqual({
      kind: 'skip',
      reason: 'min_interval',
      nextRefreshAt: hoursAgo(-1),
    });
  });

  it('is free once a whole cadence period of the plan has passed since the last free refresh', () => {
    expect(decideRefresh(post({ lastIncludedRefreshAt: hoursAgo(24) }), 'scale', NOW)).toEqual({
      kind: 'included',
    });
    expect(decideRefresh(post({ lastIncludedRefreshAt: hoursAgo(7 * 24) }), 'starter', NOW)).toEqual({
      kind: 'included',
    });
  });

  it('costs credits inside the cadence on plans that may spend them, else is cooldown', () => {
    const recent = post({ lastRefreshedAt: hoursAgo(13), lastIncludedRefreshAt: hoursAgo(13) });
    expect(decideRefresh(recent, 'scale', NOW)).toEqual({ kind: 'credit' });
    expect(decideRefresh(recent, 'growth', NOW)).toEqual({ kind: 'skip', reason: 'cooldown' });
  });
});
