import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

export const GENESIS_HASH = '0'.repeat(64);

/** hash = SHA-256(previous line's hash + canonical JSON of this line without its `hash`). */
export function chainHash(prev: string, body: Record<string, unknown>): string {
  return createHash('sha256').update(prev).update(canonicalJson(body)).digest('hex');
}

/** Adds `prev` and `hash` to each record in turn. */
export class HashChain {
  private last = GENESIS_HASH;

  link<T extends Record<string, unknown>>(body: T): T & { prev: string; hash: string } {
    const withPrev = { ...body, prev: this.last };
    const hash = chainHash(this.last, withPrev);
    this.last = hash;
    return { ...withPrev, hash };
  }

  /**
   * Links a record whose canonical JSON (with `prev`) the caller renders itself, for hot paths that
   * know their record's shape; `render(prev)` must equal `canonicalJson({ ...body, prev })`.
   */
  linkRendered(render: (prev: string) => string): { prev: string; hash: string } {
    const prev = this.last;
    const hash = createHash('sha256').update(prev).update(render(prev)).digest('hex');
    this.last = hash;
    return { prev, hash };
  }

  get head(): string {
    return this.last;
  }
}
