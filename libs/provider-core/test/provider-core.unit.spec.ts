import { SimulatedProvider } from '@analyst/provider-sim';
import { ProviderFault, RoutingProvider, backoffMs, keywordTest, withRetries } from '../src';

describe('withRetries', () => {
  it('retries transient faults with full-jitter backoff up to the bound, then throws the last', async () => {
    const waits: number[] = [];
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new ProviderFault('transient', `503 #${calls}`));
    };
    await expect(
      withRetries(
        failing,
        { retries: 3, baseMs: 100, maxMs: 300 },
        { random: () => 0.99, sleep: async (ms) => void waits.push(ms) },
      ),
    ).rejects.toThrow('503 #4');
    expect(waits).toEqual([99, 198, 297]); // 0.99 × min(300, 100·2^n)
  });

  it('does not retry quota, auth or gone faults', async () => {
    let calls = 0;
    const quota = () => {
      calls++;
      return Promise.reject(new ProviderFault('quota', 'spent'));
    };
    await expect(withRetries(quota, { retries: 3, baseMs: 1, maxMs: 1 })).rejects.toThrow('spent');
    expect(calls).toBe(1);
  });

  it('backoff grows to the cap', () => {
    expect(
      [0, 1, 2, 3, 4, 5].map((n) => backoffMs({ retries: 6, baseMs: 250, maxMs: 4_000 }, n, () => 1)),
    ).toEqual([250, 500, 1000, 2000, 4000, 4000]);
  });
});

describe('RoutingProvider', () => {
  it('sends each platform to its provider and fails platforms without one', async () => {
    const sim = new SimulatedProvider();
    const routing = new RoutingProvider({ tiktok: sim });
    expect(routing.supports('tiktok')).toBe(true);
    expect(routing.supports('youtube')).toBe(false);
    const link = 'https://tiktok.com/@demo/video/7300000000000000001';
    expect(await routing.fetchPost(link, { fullRead: false, commentLimit: 3 })).toEqual(
      await sim.fetchPost(link, { fullRead: false, commentLimit: 3 }),
    );
    expect(await routing.fetchPost('https://youtube.com/watch?v=dQw4w9WgXcQ', { fullRead: true })).toEqual({
      status: 'failed',
      reason: 'no provider is configured for youtube (ANALYST_PROVIDERS)',
    });
    await expect(routing.discoverAccount('https://youtube.com/@someone', { limit: 1 })).rejects.toThrow(
      'no provider is configured for youtube (ANALYST_PROVIDERS)',
    );
  });
});

describe('keywordTest', () => {
  it('includes, exact and excludes, case-insensitive', () => {
    expect(
      ['Rent in Berlin', 'Parenting tips', 'cooking'].map(keywordTest({ term: 'rent', match: 'includes' })),
    ).toEqual([true, true, false]);
    expect(['Rent in Berlin', 'Parenting tips'].map(keywordTest({ term: 'rent', match: 'exact' }))).toEqual([
      true,
      false,
    ]);
    expect(['Rent in Berlin', 'cooking'].map(keywordTest({ term: 'RENT', match: 'excludes' }))).toEqual([
      false,
      true,
    ]);
  });
});
