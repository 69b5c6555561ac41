import type { FakeRedditComment, FakeRedditPost } from './reddit-fake';

export const T0 = 1_772_000_000; // 2026-02-25T06:13:20Z

export function comment(
  id: string,
  replies: FakeRedditComment[] = [],
  extra: Partial<FakeRedditComment> = {},
): FakeRedditComment {
  return {
    id,
    author: `user_${id}`,
    body: `body of ${id}`,
    score: id.length,
    createdUtc: T0 + 60,
    replies,
    ...extra,
  };
}

/**
 * c0 → r0..r5 (r0 → n0 → d0, n1); c1 removed with replies x0, x1; c2 deleted; c3..c29 plain.
 * 41 comments in the tree, 39 readable.
 */
export function threadPost(id = 'abc123', extra: Partial<FakeRedditPost> = {}): FakeRedditPost {
  const c0 = comment('c0', [
    comment('r0', [comment('n0', [comment('d0')]), comment('n1', [], { isSubmitter: true })]),
    ...['r1', 'r2', 'r3', 'r4', 'r5'].map((r) => comment(r)),
  ]);
  const c1 = comment('c1', [comment('x0'), comment('x1', [], { score: -4 })], { gone: 'removed' });
  const c2 = comment('c2', [], { gone: 'deleted' });
  const rest = Array.from({ length: 27 }, (_, i) => comment(`c${i + 3}`));
  return {
    id,
    subreddit: 'berlin',
    author: 'op_user',
    title: 'Rent in Berlin is out of control',
    selftext: 'Paying 1,400 for 40 m². Is this normal now?',
    createdUtc: T0,
    score: 2_345,
    numCrossposts: 3,
    kind: 'self',
    comments: [c0, c1, c2, ...rest],
    ...extra,
  };
}

export const READABLE_ORDER = [
  'c0',
  'r0',
  'n0',
  'd0',
  'n1',
  'r1',
  'r2',
  'r3',
  'r4',
  'r5',
  'x0',
  'x1',
  ...Array.from({ length: 27 }, (_, i) => `c${i + 3}`),
];
