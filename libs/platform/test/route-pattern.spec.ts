import { rewriteLegacyUrl, routePattern } from '@analyst/platform';

describe('routePattern', () => {
  it('reads the matched pattern once per request and keeps it; undefined when no route matched', () => {
    let reads = 0;
    const request = (url: string | undefined) => ({
      get routeOptions() {
        reads++;
        return { url };
      },
    });
    const matched = request('/analyst/v1/posts/:postId');
    expect(routePattern(matched)).toBe('/analyst/v1/posts/:postId');
    expect(routePattern(matched)).toBe('/analyst/v1/posts/:postId');
    const unmatched = request(undefined);
    expect(routePattern(unmatched)).toBeUndefined();
    expect(routePattern(unmatched)).toBeUndefined();
    expect(reads).toBe(2);
  });
});

describe('prefixes end at a path or a query', () => {
  it('rewrites /v1/client, its paths and its query onto /analyst/v1, and nothing that only starts alike', () => {
    const rewrite = (url: string) => {
      const headers: Record<string, unknown> = {};
      return [rewriteLegacyUrl({ url, headers }), headers['x-analyst-legacy-prefix'] ?? null];
    };
    expect(rewrite('/v1/client')).toEqual(['/analyst/v1', '1']);
    expect(rewrite('/v1/client/posts?limit=5')).toEqual(['/analyst/v1/posts?limit=5', '1']);
    expect(rewrite('/v1/client?x=1')).toEqual(['/analyst/v1?x=1', '1']);
    expect(rewrite('/v1/clientele')).toEqual(['/v1/clientele', null]);
    expect(rewrite('/healthz')).toEqual(['/healthz', null]);
  });
});
