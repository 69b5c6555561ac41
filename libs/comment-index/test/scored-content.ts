import type { FetchedComment } from '@analyst/contracts';
import { SimulatedProvider } from '@analyst/provider-sim';
import { LexiconScorer } from '@analyst/scoring';
import type { PostVersionContent } from '@analyst/testing';

/** These comments as a post version ingest records: under a simulated post, scored by the product's scorer. */
export function scoredContent(fetched: FetchedComment[]): PostVersionContent {
  const base = new SimulatedProvider().fetchPostSync('https://www.youtube.com/watch?v=L0000000001', {
    fullRead: false,
    commentLimit: 1,
  });
  if (base.status !== 'ok') throw new Error('the simulated provider refused the post');
  const scorer = new LexiconScorer();
  const scoring = scorer.scorePost(base.post, fetched);
  return {
    post: base.post,
    fetched,
    scored: scoring.comments,
    topics: scoring.topics,
    messages: scoring.messages,
    scorer: { name: scorer.name, version: scorer.version },
  };
}

/** A comment of the simulated kind, with what a test sets. */
export function comment(i: number, body: string, postedAt: string, likes = 0): FetchedComment {
  return {
    id: `c${i}`,
    parentId: null,
    authorUsername: `user${i % 37}`,
    authorIsCreator: false,
    body,
    likes,
    postedAt,
    hidden: false,
  };
}
