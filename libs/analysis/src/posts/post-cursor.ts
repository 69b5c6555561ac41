import { SealedToken } from '@analyst/platform';
import { AnalysisError } from '../errors/analysis-error';

/** Where a page of posts ended: the post's sort time and id (newest first). */
export interface PostPosition {
  t: number;
  id: string;
}

/** What a post-list cursor is bound to: the route (GET /posts, or one collection's posts), the team, the filters, the limit. */
export interface PostCursorBinding {
  route: string;
  teamId: string;
  /** The filters as `meta.filters` echoes them, canonical JSON. */
  filters: string;
  limit: number;
}

export const POST_CURSORS = Symbol('PostCursors');
const VERSION = 1;

const invalid = (why: string): AnalysisError =>
  new AnalysisError(
    'invalid_cursor',
    `invalid cursor: ${why}; send the same route, filters and limit as the request that returned it, or omit it to start again`,
  );

/**
 * Post-list cursors, sealed like the sample cursors: a client can neither read nor forge one, and
 * one minted for another route, team, filter set or limit is refused instead of silently restarting
 * the list.
 */
export class PostCursors {
  private readonly sealer: SealedToken;

  constructor(secret: string | undefined) {
    this.sealer = new SealedToken(secret, 'post-cursor');
  }

  encode(binding: PostCursorBinding, after: PostPosition): string {
    return this.sealer.seal([
      VERSION,
      binding.route,
      binding.teamId,
      binding.filters,
      binding.limit,
      after.t,
      after.id,
    ]);
  }

  decode(token: string, expected: PostCursorBinding): PostPosition {
    const opened = this.sealer.open(token);
    if (!Array.isArray(opened) || opened.length !== 7 || opened[0] !== VERSION)
      throw invalid('not a cursor of a post list');
    const [, route, teamId, filters, limit, t, id] = opened as [
      number,
      string,
      string,
      string,
      number,
      number,
      string,
    ];
    if (route !== expected.route || teamId !== expected.teamId)
      throw invalid('it belongs to another post list');
    if (filters !== expected.filters) throw invalid('it was returned for other filters');
    if (limit !== expected.limit) throw invalid(`it was returned for limit ${limit}`);
    return { t, id };
  }
}
