import type { LimitSnapshot } from './rate-limit.service';

/** What the `header` method of a reply takes (a Fastify reply). */
interface HeaderSink {
  header(name: string, value: string): unknown;
}

/** The IETF draft fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy` and `RateLimit`. */
function draftFields(s: LimitSnapshot): [policy: string, limit: string] {
  let policy = `"global-minute";q=${s.global.perMinute};w=60, "global-day";q=${s.global.perDay};w=86400`;
  let limit = `"global-minute";r=${s.global.remainingPerMinute};t=${s.secondsToMinute}, "global-day";r=${s.global.remainingPerDay};t=${s.secondsToMidnight}`;
  if (s.rateClass !== 'global') {
    const c = s.rateClass;
    policy += `, "${c}-minute";q=${s.routeClass.perMinute};w=60, "${c}-day";q=${s.routeClass.perDay};w=86400`;
    limit += `, "${c}-minute";r=${s.routeClass.remainingPerMinute};t=${s.secondsToMinute}, "${c}-day";r=${s.routeClass.remainingPerDay};t=${s.secondsToMidnight}`;
  }
  return [policy, limit];
}

/**
 * The response headers of an admitted (or refused) request. The contract names the daily and class
 * headers; the per-minute global ones are `X-RateLimit-Limit` / `-Remaining` / `-Reset`. The IETF
 * draft (draft-ietf-httpapi-ratelimit-headers) fields carry the same numbers as structured lists.
 */
export function rateLimitHeaders(s: LimitSnapshot): Record<string, string> {
  const [policy, limit] = draftFields(s);
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
    'RateLimit-Policy': policy,
    RateLimit: limit,
  };
}

/**
 * `rateLimitHeaders` written straight onto a reply, in the same order, without the record: the
 * path every admitted request takes. The names are given in lower case, as the reply stores (and
 * sends) them, so it keeps them as they are instead of lower-casing a copy of each.
 */
export function setRateLimitHeaders(reply: HeaderSink, s: LimitSnapshot): void {
  const [policy, limit] = draftFields(s);
  reply.header('x-ratelimit-limit', String(s.global.perMinute));
  reply.header('x-ratelimit-remaining', String(s.global.remainingPerMinute));
  reply.header('x-ratelimit-reset', String(s.secondsToMinute));
  reply.header('x-ratelimit-daily-limit', String(s.global.perDay));
  reply.header('x-ratelimit-daily-remaining', String(s.global.remainingPerDay));
  reply.header('x-ratelimit-class', s.rateClass);
  reply.header('x-ratelimit-class-limit', String(s.routeClass.perMinute));
  reply.header('x-ratelimit-class-remaining', String(s.routeClass.remainingPerMinute));
  reply.header('x-ratelimit-class-daily-limit', String(s.routeClass.perDay));
  reply.header('x-ratelimit-class-daily-remaining', String(s.routeClass.remainingPerDay));
  reply.header('x-ratelimit-bytes-remaining', String(s.remainingBytes));
  reply.header('ratelimit-policy', policy);
  reply.header('ratelimit', limit);
}
