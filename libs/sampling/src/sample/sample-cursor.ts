import { SealedToken } from '@analyst/platform';
import { SamplingError } from '../errors/sampling-error';

/** Where a page ended in the sample's order: (tier, primary, secondary, comment id). */
export type SortKey = readonly [number, number, number, string];

/** What a cursor binds: the team, the scope (analysis, or post and data version), the query, the score version. */
export interface CursorBinding {
  teamId: string;
  scope: string;
  query: string;
  scoreVersion: number;
}

interface CursorPayload extends CursorBinding {
  after: SortKey;
  /** Rows returned before the next page (for `meta.offset`). */
  served: number;
}

const VERSION = 1;
const invalid = (why: string): SamplingError =>
  new SamplingError(
    'invalid_cursor',
    `invalid cursor: ${why}; send the same analysis or post, source and filters as the request that returned it, or omit it to start again`,
  );

/**
 * Opaque next-page tokens: the binding and the last sort key sealed (SealedToken: AES-256-GCM with a
 * synthetic IV, so one page always yields the same cursor). A client can neither read nor forge one,
 * nor replay it against another analysis, post, query or team.
 */
export class CursorCodec {
  private readonly sealer: SealedToken;

  /** `secret` is shared by every replica (ANALYST_INTERNAL_SECRET); a random one per process otherwise. */
  constructor(secret: string | undefined) {
    this.sealer = new SealedToken(secret, 'sampling-cursor');
  }

  encode(binding: CursorBinding, after: SortKey, served: number): string {
    const payload: CursorPayload = { ...binding, after, served };
    return this.sealer.seal([VERSION, payload]);
  }

  /** The position after which the next page starts; 400 `invalid_cursor` on anything else. */
  decode(token: string, expected: CursorBinding): { after: SortKey; served: number } {
    const opened = this.sealer.open(token);
    if (
      !Array.isArray(opened) ||
      opened[0] !== VERSION ||
      typeof opened[1] !== 'object' ||
      opened[1] === null
    )
      throw invalid('not a cursor of this route');
    const payload = opened[1] as CursorPayload;
    if (payload.teamId !== expected.teamId || payload.scope !== expected.scope)
      throw invalid('it belongs to another analysis or post, or the post was refreshed since');
    if (payload.query !== expected.query) throw invalid('it belongs to another source or other filters');
    if (payload.scoreVersion !== expected.scoreVersion)
      throw invalid("the team's score version or the post's data changed since");
    return { after: payload.after, served: payload.served };
  }
}
