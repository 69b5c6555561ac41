import { ROUTE_POLICIES } from '@analyst/contracts';
import { API_PREFIX, routerPath } from '@analyst/platform';

/** The rate class of the routes that answer a long-lived stream (`GET /events`). */
export const STREAM_RATE_CLASS = 'events_stream';

/** `METHOD /analyst/v1/pattern` of each stream route, as Fastify reports the route it matched. */
const STREAM_ROUTES: ReadonlySet<string> = new Set(
  ROUTE_POLICIES.filter((policy) => policy.rateClass === STREAM_RATE_CLASS).map(
    (policy) => `${policy.method} ${API_PREFIX}${routerPath(policy.path)}`,
  ),
);

/** Whether the route Fastify matched (its method and pattern) answers a stream. HEAD opens none. */
export function isStreamRoute(method: string, pattern: string | undefined): boolean {
  return pattern !== undefined && STREAM_ROUTES.has(`${method} ${pattern}`);
}
