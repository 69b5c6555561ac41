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

/**
 * A tree deeper than "continue this thread" nodes let a listing go when the fake's `continueDepth`
 * is 3 (comments at depth 3 and below are only reachable through `?comment=<parent>`):
 *
 * - q0 → q1 → q2 → q3 → (q4 → q5 (removed) → q6 → q7), w0..w3, w4 → z0: the q3 level holds six
 *   replies, so a `?comment=q2` answer lists four and folds w3, w4 into a `more` node whose
 *   morechildren answer carries a continue node for w4;
 * - p0 → p1 → p2 → p3;
 * - s0..s3 at the top, s2 and s3 past the four rendered inline; s3 → t0 → t1 → t2 comes through
 *   morechildren until t1, whose reply needs `?comment=t1`.
 *
 * 25 comments, 24 readable (q5 removed; q6 hangs from q4).
 */
export function deepThreadPost(id = 'deep01', extra: Partial<FakeRedditPost> = {}): FakeRedditPost {
  const q4 = comment('q4', [comment('q5', [comment('q6', [comment('q7')])], { gone: 'removed' })]);
  const q3 = comment('q3', [
    q4,
    comment('w0'),
    comment('w1'),
    comment('w2'),
    comment('w3'),
    comment('w4', [comment('z0')]),
  ]);
  return threadPost(id, {
    comments: [
      comment('q0', [comment('q1', [comment('q2', [q3])])]),
      comment('p0', [comment('p1', [comment('p2', [comment('p3', [], { isSubmitter: true })])])]),
      comment('s0'),
      comment('s1'),
      comment('s2'),
      comment('s3', [comment('t0', [comment('t1', [comment('t2')])])]),
    ],
    ...extra,
  });
}

export const DEEP_READABLE_ORDER = [
  'q0',
  'q1',
  'q2',
  'q3',
  'q4',
  'q6',
  'q7',
  'w0',
  'w1',
  'w2',
  'w3',
  'w4',
  'z0',
  'p0',
  'p1',
  'p2',
  'p3',
  's0',
  's1',
  's2',
  's3',
  't0',
  't1',
  't2',
];

/** Each readable comment of `deepThreadPost` and the comment it replies to (q6 skips the removed q5). */
export const DEEP_PARENTS: Record<string, string | null> = {
  q0: null,
  q1: 'q0',
  q2: 'q1',
  q3: 'q2',
  q4: 'q3',
  q6: 'q4',
  q7: 'q6',
  w0: 'q3',
  w1: 'q3',
  w2: 'q3',
  w3: 'q3',
  w4: 'q3',
  z0: 'w4',
  p0: null,
  p1: 'p0',
  p2: 'p1',
  p3: 'p2',
  s0: null,
  s1: null,
  s2: null,
  s3: null,
  t0: 's3',
  t1: 't0',
  t2: 't1',
};
