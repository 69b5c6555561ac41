import {
  OPERATOR_ROUTES,
  ROUTE_POLICIES,
  type HttpMethod,
  type OperatorRouteOwner,
  type RouteOwner,
} from '@analyst/contracts';
import { API_PREFIX, routerPath } from '@analyst/platform';

/** A service the gateway forwards to: the owner of a public route other than itself, or of an operator route. */
export type UpstreamService = Exclude<RouteOwner, 'gateway'> | OperatorRouteOwner;

export interface ForwardedRoute {
  method: HttpMethod;
  /** Path under `/analyst/v1` (public) or the full `/admin/v1/...` path (operator), `{param}` style. */
  path: string;
  service: UpstreamService;
  /** An operator route: the admin token instead of an API key, and no place in the public document. */
  admin: boolean;
}

/**
 * Every route the gateway forwards, read from the route table: the public routes another service
 * owns (the gateway serves its own, `/me` and `/team`), then the operator routes of other services.
 */
export const FORWARDED_ROUTES: readonly ForwardedRoute[] = [
  ...ROUTE_POLICIES.flatMap((policy): ForwardedRoute[] =>
    policy.owner === 'gateway'
      ? []
      : [{ method: policy.method, path: policy.path, service: policy.owner, admin: false }],
  ),
  ...OPERATOR_ROUTES.map((route): ForwardedRoute => ({
    method: route.method,
    path: route.path,
    service: route.owner,
    admin: true,
  })),
];

/**
 * The paths of the forwarded routes of one method and audience, as a route decorator takes them:
 * router syntax, relative to the API prefix (public) or to the root (operator, outside the prefix).
 */
export function forwardedPaths(method: HttpMethod, audience: 'public' | 'admin'): string[] {
  return FORWARDED_ROUTES.filter(
    (route) => route.method === method && route.admin === (audience === 'admin'),
  ).map((route) => routerPath(route.path).slice(1));
}

/** The pattern Fastify reports for a forwarded route once it is mounted (`/analyst/v1/posts/:postId`). */
function mountedPattern(route: ForwardedRoute): string {
  return route.admin ? routerPath(route.path) : `${API_PREFIX}${routerPath(route.path)}`;
}

const SERVICE_BY_ROUTE = new Map(
  FORWARDED_ROUTES.map((route) => [`${route.method} ${mountedPattern(route)}`, route.service]),
);

/** The service that owns the forwarded route Fastify matched, by its method and pattern. */
export function serviceOf(method: HttpMethod, pattern: string): UpstreamService {
  const service = SERVICE_BY_ROUTE.get(`${method} ${pattern}`);
  // Unreachable while the proxy controller mounts its handlers on forwardedPaths.
  if (service === undefined) throw new Error(`no forwarded route ${method} ${pattern}`);
  return service;
}
