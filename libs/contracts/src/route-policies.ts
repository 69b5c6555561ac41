import type { RateClassId } from './rate-class-ids';
import type { Scope } from './scopes';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a public route needs: the scopes a key must hold and the rate class it is charged to. */
export interface RoutePolicy {
  method: HttpMethod;
  /** Relative to `/analyst/v1`, with `{param}` placeholders, as the spec writes it. */
  path: string;
  /** The SDK method name the OpenAPI document gives the route. */
  operationId: string;
  scopes: readonly Scope[];
  rateClass: RateClassId;
  /** The service whose controller serves it; the gateway forwards every other owner's routes there. */
  owner: RouteOwner;
}

/** Who serves a public route: the gateway itself (`/me`, `/team`) or the service it forwards to. */
export type RouteOwner = 'gateway' | 'ingest' | 'analysis' | 'sampling' | 'notifier';

/**
 * The spec's scope table and rate-class table, route by route. The gateway guard applies the
 * matching entry to any controller route that declares nothing itself, so later services get the
 * contract's rules by mounting their routes at these paths.
 */
export const ROUTE_POLICIES: readonly RoutePolicy[] = [
  { method: 'GET', path: '/me', operationId: 'getMe', scopes: [], rateClass: 'global', owner: 'gateway' },
  {
    method: 'GET',
    path: '/team',
    operationId: 'getTeam',
    scopes: ['team:read'],
    rateClass: 'global',
    owner: 'gateway',
  },
  // Snapshots; an AI search is charged to analysis_search instead (see rateClassForRequest).
  {
    method: 'POST',
    path: '/analyses',
    operationId: 'createAnalysis',
    scopes: ['analyses:run'],
    rateClass: 'analysis_create',
    owner: 'analysis',
  },
  {
    method: 'GET',
    path: '/analyses',
    operationId: 'listAnalyses',
    scopes: ['analyses:read'],
    rateClass: 'global',
    owner: 'analysis',
  },
  {
    method: 'GET',
    path: '/analyses/{analysisId}',
    operationId: 'getAnalysis',
    scopes: ['analyses:read'],
    rateClass: 'analysis_read',
    owner: 'analysis',
  },
  {
    method: 'GET',
    path: '/analyses/{analysisId}/comments',
    operationId: 'listAnalysisComments',
    scopes: ['analyses:read', 'comments:read'],
    rateClass: 'analysis_comments',
    owner: 'sampling',
  },
  {
    method: 'GET',
    path: '/posts',
    operationId: 'listPosts',
    scopes: ['posts:read'],
    rateClass: 'global',
    owner: 'analysis',
  },
  {
    method: 'GET',
    path: '/posts/{postId}/analysis',
    operationId: 'getPostAnalysis',
    scopes: ['posts:read'],
    rateClass: 'global',
    owner: 'analysis',
  },
  {
    method: 'GET',
    path: '/posts/{postId}/analysis/comments',
    operationId: 'listPostComments',
    scopes: ['posts:read', 'comments:read'],
    rateClass: 'comments',
    owner: 'sampling',
  },
  {
    method: 'GET',
    path: '/posts/{postId}/metrics',
    operationId: 'getPostMetrics',
    scopes: ['posts:read'],
    rateClass: 'global',
    owner: 'analysis',
  },
  {
    method: 'GET',
    path: '/content/jobs/{jobId}',
    operationId: 'getContentJob',
    scopes: ['posts:read'],
    rateClass: 'content_jobs',
    owner: 'ingest',
  },
  // Not in the spec's table: the list shows the same jobs as the detail route, so the same scope.
  {
    method: 'GET',
    path: '/content/jobs',
    operationId: 'listContentJobs',
    scopes: ['posts:read'],
    rateClass: 'content_jobs',
    owner: 'ingest',
  },
  {
    method: 'POST',
    path: '/content/posts/add',
    operationId: 'addPosts',
    scopes: ['posts:write'],
    rateClass: 'content_add_posts',
    owner: 'ingest',
  },
  {
    method: 'POST',
    path: '/content/posts/refresh',
    operationId: 'refreshPosts',
    scopes: ['posts:write'],
    rateClass: 'content_refresh',
    owner: 'ingest',
  },
  {
    method: 'POST',
    path: '/content/accounts/add',
    operationId: 'addAccount',
    scopes: ['accounts:write'],
    rateClass: 'content_add_accounts',
    owner: 'ingest',
  },
  {
    method: 'GET',
    path: '/collections',
    operationId: 'listCollections',
    scopes: ['collections:read'],
    rateClass: 'global',
    owner: 'analysis',
  },
  {
    method: 'GET',
    path: '/collections/{collectionId}',
    operationId: 'getCollection',
    scopes: ['collections:read'],
    rateClass: 'global',
    owner: 'analysis',
  },
  {
    method: 'GET',
    path: '/collections/{collectionId}/posts',
    operationId: 'listCollectionPosts',
    scopes: ['collections:read'],
    rateClass: 'collection_posts',
    owner: 'analysis',
  },
  {
    method: 'GET',
    path: '/insights',
    operationId: 'getInsights',
    scopes: ['insights:read'],
    rateClass: 'global',
    owner: 'analysis',
  },
  // The spec does not show the saved-analyses path; this is the one the gateway reserves for it.
  {
    method: 'GET',
    path: '/saved-analyses',
    operationId: 'listSavedAnalyses',
    scopes: ['insights:read'],
    rateClass: 'global',
    owner: 'analysis',
  },
  // Push (issue 39), an extension of the spec: webhook endpoints, their deliveries, the event stream.
  {
    method: 'POST',
    path: '/webhooks',
    operationId: 'createWebhookEndpoint',
    scopes: ['webhooks:write'],
    rateClass: 'webhooks_write',
    owner: 'notifier',
  },
  {
    method: 'GET',
    path: '/webhooks',
    operationId: 'listWebhookEndpoints',
    scopes: ['webhooks:read'],
    rateClass: 'global',
    owner: 'notifier',
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}',
    operationId: 'getWebhookEndpoint',
    scopes: ['webhooks:read'],
    rateClass: 'global',
    owner: 'notifier',
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    operationId: 'deleteWebhookEndpoint',
    scopes: ['webhooks:write'],
    rateClass: 'webhooks_write',
    owner: 'notifier',
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    scopes: ['webhooks:write'],
    rateClass: 'webhooks_write',
    owner: 'notifier',
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/ping',
    operationId: 'pingWebhookEndpoint',
    scopes: ['webhooks:write'],
    rateClass: 'webhooks_write',
    owner: 'notifier',
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries',
    operationId: 'listWebhookDeliveries',
    scopes: ['webhooks:read'],
    rateClass: 'global',
    owner: 'notifier',
  },
  {
    method: 'GET',
    path: '/events',
    operationId: 'streamEvents',
    scopes: ['webhooks:read'],
    rateClass: 'events_stream',
    owner: 'notifier',
  },
];

/** An operator route (`/admin/v1`, admin token) that a service other than the gateway serves. */
export interface OperatorRoute {
  method: HttpMethod;
  /** The full path, with `{param}` placeholders. */
  path: string;
  /** The service whose controller serves it; the gateway forwards it there. */
  owner: OperatorRouteOwner;
}

/** Who serves an operator route the gateway does not serve itself. */
export type OperatorRouteOwner = 'ledger' | 'analysis';

/**
 * The operator routes other services serve, route by route. Every other `/admin/v1` route is the
 * gateway's own (teams, keys, limits, usage); the admin token is checked wherever they are served.
 */
export const OPERATOR_ROUTES: readonly OperatorRoute[] = [
  { method: 'POST', path: '/admin/v1/teams/{teamId}/credits', owner: 'ledger' },
  { method: 'GET', path: '/admin/v1/teams/{teamId}/ledger', owner: 'ledger' },
  { method: 'POST', path: '/admin/v1/teams/{teamId}/reports', owner: 'analysis' },
  { method: 'POST', path: '/admin/v1/teams/{teamId}/saved-analyses', owner: 'analysis' },
];

/** `/analyses/{analysisId}` and `/analyses/:id` both become `/analyses/{}`. */
export function routeShape(path: string): string {
  return (
    path
      .replace(/\{[^}]+\}/g, '{}')
      .replace(/:[^/]+/g, '{}')
      .replace(/\/+$/, '') || '/'
  );
}

const BY_SHAPE = new Map(ROUTE_POLICIES.map((p) => [`${p.method} ${routeShape(p.path)}`, p]));

export function findRoutePolicy(method: string, path: string): RoutePolicy | undefined {
  return BY_SHAPE.get(`${method.toUpperCase()} ${routeShape(path)}`);
}

/** The policy of a route written as in the spec, e.g. `routePolicy('GET /analyses/{analysisId}')`. */
export function routePolicy(route: `${HttpMethod} /${string}`): RoutePolicy {
  const [method, path] = route.split(' ');
  const policy = findRoutePolicy(method, path);
  if (!policy) throw new Error(`no route policy for ${route}`);
  return policy;
}

/** A POST /analyses body asks for an AI search when it has `search` in any mode but `keyword` (`ai` is the default). */
export function isAiSearch(body: unknown): boolean {
  const search = (body as { search?: unknown } | null | undefined)?.search;
  if (search === undefined || search === null) return false;
  return typeof search !== 'object' || (search as { mode?: unknown }).mode !== 'keyword';
}

/** The class a request is charged to: the route's class, except that an AI search is `analysis_search`. */
export function rateClassForRequest(rateClass: RateClassId, body: unknown): RateClassId {
  return rateClass === 'analysis_create' && isAiSearch(body) ? 'analysis_search' : rateClass;
}
