import { API_PREFIX } from './api-paths';

/**
 * `Location` header values include the public prefix (`/analyst/v1/content/jobs/cj_1`), whichever
 * prefix the request came in on; paths inside bodies (`comments.path`) are relative to it.
 */
export function locationOf(relativePath: string, actingFor?: ActingFor): string {
  return `${API_PREFIX}${relativePath.startsWith('/') ? relativePath : `/${relativePath}`}${actingFor ? teamQueryOf(actingFor) : ''}`;
}

/** The key's team and the team a request acts on (an Enterprise key may act on a sub-team). */
export interface ActingFor {
  teamId: string;
  targetTeamId: string;
}

/**
 * `?teamId=<sub-team>` when the request acted on an Enterprise sub-team, else empty: a Location or
 * `comments.path` followed with the same key then reaches the sub-team's resource, not a 404.
 */
export function teamQueryOf(actingFor: ActingFor): string {
  return actingFor.targetTeamId === actingFor.teamId
    ? ''
    : `?teamId=${encodeURIComponent(actingFor.targetTeamId)}`;
}

/** A body path relative to `{base_url}`, e.g. `relativePathOf('analyses', id, 'comments')`. */
export function relativePathOf(...segments: string[]): string {
  return `/${segments.map((s) => encodeURIComponent(s)).join('/')}`;
}
