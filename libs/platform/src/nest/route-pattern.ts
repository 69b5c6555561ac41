const PATTERN = Symbol.for('analyst.route-pattern');

interface Routed {
  routeOptions: { url?: string };
}

/**
 * The route pattern Fastify matched (`/analyst/v1/posts/:postId`); undefined when no route did.
 * Fastify builds `request.routeOptions` afresh on every read (an object of a dozen fields), and
 * several hooks ask on every request, so it is read once and kept on the request.
 */
export function routePattern(request: Routed): string | undefined {
  const carrier = request as Routed & { [PATTERN]?: string | null };
  let pattern = carrier[PATTERN];
  if (pattern === undefined) {
    pattern = request.routeOptions.url ?? null;
    carrier[PATTERN] = pattern;
  }
  return pattern ?? undefined;
}

/** An OpenAPI path (`/posts/{postId}`) in the router's syntax (`/posts/:postId`). */
export function routerPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}
