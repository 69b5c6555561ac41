import { ROUTE_POLICIES, type HttpMethod, type RouteOwner } from '@analyst/contracts';

/** A service the gateway forwards to: a public route's owner other than itself, or the ledger (operator routes). */
export type UpstreamService = Exclude<RouteOwner, 'gateway'> | 'ledger';

export interface ForwardedRoute {
  method: HttpMethod;
  /** Path under `/analyst/v1` (public) or the full `/admin/v1/...` path (operator), `{param}` style. */
  path: string;
  service: UpstreamService;
  admin: boolean;
}

/** Operator routes served by other services; everything else under /admin/v1 is the gateway's. */
export const FORWARDED_ADMIN_ROUTES: readonly ForwardedRoute[] = [
  { method: 'POST', path: '/admin/v1/teams/{teamId}/credits', service: 'ledger', admin: true },
  { method: 'GET', path: '/admin/v1/teams/{teamId}/ledger', service: 'ledger', admin: true },
  { method: 'POST', path: '/admin/v1/teams/{teamId}/reports', service: 'analysis', admin: true },
  { method: 'POST', path: '/admin/v1/teams/{teamId}/saved-analyses', service: 'analysis', admin: true },
];

export function forwardedRoutes(): ForwardedRoute[] {
  // The route table names each public route's owner; the gateway serves its own (`/me`, `/team`).
  const publicRoutes = ROUTE_POLICIES.flatMap((policy): ForwardedRoute[] =>
    policy.owner === 'gateway'
      ? []
      : [{ method: policy.method, path: policy.path, service: policy.owner, admin: false }],
  );
  return [...publicRoutes, ...FORWARDED_ADMIN_ROUTES];
}

/** `{param}` → `:param`, the router's syntax. */
export function routerPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}
