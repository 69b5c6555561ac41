import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { ApiError } from '@analyst/contracts';

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
const invalid = (why: string): ApiError =>
  new ApiError(400, `invalid cursor: ${why}; send the same analysis or post, source and filters as the request that returned it, or omit it to start again`, 'invalid_cursor');

/**
 * Opaque next-page tokens: AES-256-GCM over the binding and the last sort key, with a synthetic
 * IV (an HMAC of the plaintext) so one page always yields the same cursor. A client can neither
 * read nor forge one, nor replay it against another analysis, post, query or team.
 */
export class CursorCodec {
  private readonly encKey: Buffer;
  private readonly ivKey: Buffer;

  /** `secret` is shared by every replica (ANALYST_INTERNAL_SECRET); a random one per process otherwise. */
  constructor(secret: string | undefined) {
    const root = secret ?? randomBytes(32).toString('hex');
    this.encKey = createHash('sha256').update(`analyst-sampling-cursor-enc:${root}`).digest();
    this.ivKey = createHash('sha256').update(`analyst-sampling-cursor-iv:${root}`).digest();
  }

  encode(binding: CursorBinding, after: SortKey, served: number): string {
    const payload: CursorPayload = { ...binding, after, served };
    const plain = Buffer.from(JSON.stringify([VERSION, payload]));
    const iv = createHmac('sha256', this.ivKey).update(plain).digest().subarray(0, 12);
    const cipher = createCipheriv('aes-256-gcm', this.encKey, iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The position after which the next page starts; 400 `invalid_cursor` on anything else. */
  decode(token: string, expected: CursorBinding): { after: SortKey; served: number } {
    const raw = /^[A-Za-z0-9_-]+$/.test(token) ? Buffer.from(token, 'base64url') : Buffer.alloc(0);
    if (raw.length < 29) throw invalid('not a cursor of this route');
    let payload: CursorPayload;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.encKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
      const [version, body] = JSON.parse(plain.toString('utf8')) as [number, CursorPayload];
      if (version !== VERSION) throw new Error('version');
      payload = body;
    } catch {
      throw invalid('not a cursor of this route');
    }
    if (payload.teamId !== expected.teamId || payload.scope !== expected.scope) throw invalid('it belongs to another analysis or post, or the post was refreshed since');
    if (payload.query !== expected.query) throw invalid('it belongs to another source or other filters');
    if (payload.scoreVersion !== expected.scoreVersion) throw invalid("the team's score version or the post's data changed since");
    return { after: payload.after, served: payload.served };
  }
}
