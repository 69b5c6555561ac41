import { API_PREFIX } from '@analyst/platform';

/**
 * `Location` header values include the public prefix (`/analyst/v1/content/jobs/cj_1`), whichever
 * prefix the request came in on; paths inside bodies (`comments.path`) are relative to it.
 */
export function locationOf(relativePath: string): string {
  return `${API_PREFIX}${relativePath.startsWith('/') ? relativePath : `/${relativePath}`}`;
}

/** A body path relative to `{base_url}`, e.g. `relativePathOf('analyses', id, 'comments')`. */
export function relativePathOf(...segments: string[]): string {
  return `/${segments.map((s) => encodeURIComponent(s)).join('/')}`;
}
