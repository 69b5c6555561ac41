import type { LimitSnapshot } from './rate-limit.service';

/**
 * The response headers of an admitted (or refused) request. The contract names the daily and class
 * headers; the per-minute global ones are `X-RateLimit-Limit` / `-Remaining` / `-Reset`. The IETF
 * draft (draft-ietf-httpapi-ratelimit-headers) fields carry the same numbers as structured lists.
 */
export function rateLimitHeaders(s: LimitSnapshot): Record<string, string> {
  const policies: [string, number, number, number][] = [
    ['global-minute', s.global.perMinute, 60, s.global.remainingPerMinute],
    ['global-day', s.global.perDay, 86_400, s.global.remainingPerDay],
  ];
  if (s.rateClass !== 'global') {
    policies.push([`${s.rateClass}-minute`, s.routeClass.perMinute, 60, s.routeClass.remainingPerMinute]);
    policies.push([`${s.rateClass}-day`, s.routeClass.perDay, 86_400, s.routeClass.remainingPerDay]);
  }
  const reset = (window: number) => (window === 60 ? s.secondsToMinute : s.secondsToMidnight);
  return {
    'X-RateLimit-Limit': String(s.global.perMinute),
    'X-RateLimit-Remaining': String(s.global.remainingPerMinute),
    'X-RateLimit-Reset': String(s.secondsToMinute),
    'X-RateLimit-Daily-Limit': String(s.global.perDay),
    'X-RateLimit-Daily-Remaining': String(s.global.remainingPerDay),
    'X-RateLimit-Class': s.rateClass,
    'X-RateLimit-Class-Limit': String(s.routeClass.perMinute),
    'X-RateLimit-Class-Remaining': String(s.routeClass.remainingPerMinute),
    'X-RateLimit-Class-Daily-Limit': String(s.routeClass.perDay),
    'X-RateLimit-Class-Daily-Remaining': String(s.routeClass.remainingPerDay),
    'X-RateLimit-Bytes-Remaining': String(s.remainingBytes),
    'RateLimit-Policy': policies.map(([name, q, w]) => `"${name}";q=${q};w=${w}`).join(', '),
    RateLimit: policies.map(([name, , w, r]) => `"${name}";r=${r};t=${reset(w)}`).join(', '),
  };
}
