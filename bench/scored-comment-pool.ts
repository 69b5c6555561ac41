import type { ProviderPost } from '@analyst/contracts';
import { SimulatedProvider } from '@analyst/provider-sim';
import { LexiconScorer } from '@analyst/scoring';
import type { CommentPool } from '@analyst/testing';

/**
 * What the read-side benches build their logs from: full simulated comment sections (links
 * `https://www.youtube.com/watch?v=<prefix><10 digits>`, so each bench keeps its own data) scored by
 * the product's scorer until the pool holds `size` comments, a base post to give every written post,
 * and the scorer that scored them.
 */
export function scoredCommentPool(
  prefix: string,
  size = 20_000,
): { pool: CommentPool; base: ProviderPost; scorer: { name: string; version: string } } {
  const provider = new SimulatedProvider();
  const scorer = new LexiconScorer();
  const link = (i: number) => `https://www.youtube.com/watch?v=${prefix}${String(i).padStart(10, '0')}`;
  const pool: CommentPool = { fetched: [], scored: [] };
  for (let i = 0; pool.fetched.length < size; i++) {
    const fetched = provider.fetchPostSync(link(i), { fullRead: true });
    if (fetched.status !== 'ok') continue;
    pool.fetched.push(...fetched.comments);
    pool.scored.push(...scorer.scorePost(fetched.post, fetched.comments).comments);
  }
  const base = provider.fetchPostSync(link(1), { fullRead: false, commentLimit: 5 });
  if (base.status !== 'ok') throw new Error('simulated provider refused the base post');
  return { pool, base: base.post, scorer: { name: scorer.name, version: scorer.version } };
}
