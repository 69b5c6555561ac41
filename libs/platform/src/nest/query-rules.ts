import { SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '@analyst/contracts';
import { routePattern, routerPath } from './route-pattern';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const SKIP = 'analyst:skip-query-rules';

/**
 * For a route that only forwards the request (the distributed gateway): the service that owns the
 * route declares its parameters and applies the rule; here the route declares none.
 */
export const SkipQueryRules = (): MethodDecorator => SetMetadata(SKIP, true);

/**
 * One rule for query strings on every public route, read from the OpenAPI document the app serves
 * (so the document and the server cannot disagree): a parameter the operation does not declare is a
 * 400 naming the ones it does, and so is a parameter given with an empty value (`?limit=`).
 * It is a global guard added after the module guards (the gateway's APP_GUARD), so a refused
 * request is still authenticated and counted first. A guard rather than an interceptor: any
 * interceptor puts every route of the app through Nest's rxjs pipeline, which cost about a sixth
 * of a /healthz request (bench/request-shell.ts).
 */
export class QueryRules implements CanActivate {
  /** Declared query parameters by method, then route pattern. */
  private readonly declared = new Map<string, Map<string, ReadonlySet<string>>>();

  /** Learns each operation's query parameters; routes the document does not list are left alone. */
  load(document: OpenAPIObject): void {
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      const route = routerPath(path);
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const names = (operation.parameters ?? [])
          .filter((p) => 'in' in p && p.in === 'query')
          .map((p) => (p as { name: string }).name);
        const byRoute = this.declared.get(method.toUpperCase()) ?? new Map<string, ReadonlySet<string>>();
        this.declared.set(method.toUpperCase(), byRoute.set(route, new Set(names)));
      }
    }
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() === 'http' && !Reflect.getMetadata(SKIP, context.getHandler())) {
      const request = context.switchToHttp().getRequest<FastifyRequest>();
      const pattern = routePattern(request);
      const allowed = pattern === undefined ? undefined : this.declared.get(request.method)?.get(pattern);
      if (allowed)
        check(request.query as Record<string, unknown> | undefined, allowed, `${request.method} ${pattern}`);
    }
    return true;
  }
}

function check(
  query: Record<string, unknown> | undefined,
  allowed: ReadonlySet<string>,
  route: string,
): void {
  for (const [name, value] of Object.entries(query ?? {})) {
    if (!allowed.has(name)) {
      const takes = allowed.size === 0 ? 'takes no query parameters' : `takes ${[...allowed].join(', ')}`;
      throw new ApiError(
        400,
        `unknown query parameter "${name}": ${route.replace(/^\w+ /, '')} ${takes}`,
        'invalid_request',
      );
    }
    if (value === '' || (Array.isArray(value) && value.includes(''))) {
      throw new ApiError(
        400,
        `query parameter "${name}" is empty; give it a value or leave it out`,
        'invalid_request',
      );
    }
  }
}
