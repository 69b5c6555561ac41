/** The public base path, and the deprecated prefix that still serves the same routes. */
export const API_PREFIX = '/analyst/v1';
export const LEGACY_PREFIX = '/v1/client';
/** Header set on requests that arrived through the legacy prefix (docs/api.md, `/v1/client` alias). */
export const LEGACY_MARKER = 'x-analyst-legacy-prefix';

/** Rewrites `/v1/client/...` onto `/analyst/v1/...`, marking the request so responses can say so. */
export function rewriteLegacyUrl(req: { url?: string; headers: Record<string, unknown> }): string {
  const url = req.url ?? '/';
  if (isUnderPrefix(url, LEGACY_PREFIX)) {
    req.headers[LEGACY_MARKER] = '1';
    return API_PREFIX + url.slice(LEGACY_PREFIX.length);
  }
  // A client cannot set it itself. Only deleted when present: a delete turns the headers object
  // into a slow dictionary for every later read.
  if (req.headers[LEGACY_MARKER] !== undefined) delete req.headers[LEGACY_MARKER];
  return url;
}

/**
 * True when `url` is `prefix` itself or goes on from it with a path or a query (so `/v1/clientele`
 * is not under `/v1/client`). No string is built: every request asks.
 */
export function isUnderPrefix(url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false;
  const next = url[prefix.length];
  return next === undefined || next === '/' || next === '?';
}
