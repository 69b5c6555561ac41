import { ROUTE_POLICIES, type HttpMethod } from '@analyst/contracts';

export type UpstreamService = 'ingest' | 'ledger' | 'analysis' | 'sampling';

export interface ForwardedRoute {
  method: HttpMethod;
  /** Path under `/analyst/v1` (public) or the full `/admin/v1/...` path (operator), `{param}` style. */
  path: string;
  service: UpstreamService;
  admin: boolean;
}

/** Which service owns a public route (the architecture's table); the gateway keeps /me and /team. */
export function ownerOf(path: string): UpstreamService | null {
  if (path === '/me' || path === '/team') return null;
  if (path.startsWith('/content/')) return 'ingest';
  if (path.endsWith('/comments')) return 'sampling';
  return 'analysis';
}

/** Operator routes served by other services; everything else under /admin/v1 is the gateway's. */
export const FORWARDED_ADMIN_ROUTES: readonly ForwardedRoute[] = [
  { method: 'POST', path: '/admin/v1/teams/{teamId}/credits', service: 'ledger', admin: true },
  { method: 'GET', path: '/admin/v1/teams/{teamId}/ledger', service: 'ledger', admin: true },
  { method: 'POST', path: '/admin/v1/teams/{teamId}/reports', service: 'analysis', admin: true },
  { method: 'POST', path: '/admin/v1/teams/{teamId}/saved-analyses', service: 'analysis', admin: true },
];

export function forwardedRoutes(): ForwardedRoute[] {
  const publicRoutes = ROUTE_POLICIES.flatMap((policy): ForwardedRoute[] => {
    const service = ownerOf(policy.path);
    return service ? [{ method: policy.method, path: policy.path, service, admin: false }] : [];
  });
  return [...publicRoutes, ...FORWARDED_ADMIN_ROUTES];
}

/** `{param}` → `:param`, the router's syntax. */
export function routerPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}
