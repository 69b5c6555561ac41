import type { FetchedComment } from '@analyst/contracts';
import { EMOJI_BY_MOOD, REPLIES, TOP_LEVEL, type ReplyKind, type TopLevelKind } from './comment-templates';
import { fill } from './fill';
import { Rng } from './prng';
import type { SimulatedPost } from './simulated-post';
import { COMMENTER_WORDS } from './subjects';

const TOP_KINDS = Object.keys(TOP_LEVEL) as TopLevelKind[];
const REPLY_KINDS = Object.keys(REPLIES) as ReplyKind[];

/** Mood profiles: weights over TOP_KINDS (praiseCreator … french). A post draws one and jitters it. */
const MOODS: Record<string, number[]> = {
  adoring: [30, 22, 3, 5, 22, 2, 8, 2, 2, 2],
  mixed: [16, 14, 10, 14, 24, 4, 10, 3, 2, 2],
  divisive: [12, 8, 18, 22, 18, 10, 6, 2, 2, 2],
  hostile: [5, 5, 22, 20, 14, 24, 6, 2, 1, 1],
  spammy: [12, 10, 6, 6, 20, 4, 38, 2, 1, 1],
};
const MOOD_NAMES = Object.keys(MOODS);
const MOOD_WEIGHTS = [30, 30, 20, 8, 12];

/** Reply kinds (agree, disagree, discuss, hostile, creator) by what the parent comment is. */
function replyWeights(parent: Kind): number[] {
  switch (parent) {
    case 'praiseCreator':
    case 'praiseTopic':
      return [55, 14, 20, 3, 8];
    case 'criticiseCreator':
    case 'criticiseTopic':
      return [32, 34, 18, 10, 6];
    case 'hostile':
    case 'reply:hostile':
      return [12, 38, 12, 34, 4];
    case 'neutral':
      return [25, 8, 45, 2, 20];
    case 'offTopic':
      return [18, 14, 40, 26, 2];
    default:
      return [40, 22, 28, 6, 4];
  }
}

type Kind = TopLevelKind | `reply:${ReplyKind}`;

function moodOf(kind: Kind): keyof typeof EMOJI_BY_MOOD {
  if (
    kind === 'praiseCreator' ||
    kind === 'praiseTopic' ||
    kind === 'reply:agree' ||
    kind === 'reply:creator'
  )
    return 'positive';
  if (
    kind === 'criticiseCreator' ||
    kind === 'criticiseTopic' ||
    kind === 'hostile' ||
    kind === 'reply:disagree' ||
    kind === 'reply:hostile'
  )
    return 'negative';
  return 'neutral';
}

function commenterName(rng: Rng): string {
  const style = rng.int(0, 2);
  const a = rng.pick(COMMENTER_WORDS);
  const b = rng.pick(COMMENTER_WORDS);
  if (style === 0) return `${a}_${b}${rng.int(1, 99)}`;
  if (style === 1) return `${a}${b}`;
  return `the.${a}.${rng.int(100, 9999)}`;
}

/** The comment an `i`-th comment replies to, or -1 for a top-level one. */
function replyParent(rng: Rng, i: number, replyRate: number): number {
  if (i === 0 || !rng.chance(replyRate)) return -1;
  // Most replies go to an early (visible) comment; some continue a recent thread, making chains.
  return rng.chance(0.65) ? rng.int(0, Math.min(i, 40) - 1) : rng.int(Math.max(0, i - 8), i - 1);
}

/** A reply's kind follows its parent's; a top-level comment's, the post's mood. */
function commentKind(rng: Rng, parentKind: Kind | null, mood: number[]): { kind: Kind; template: string } {
  if (parentKind !== null) {
    const replyKind = REPLY_KINDS[rng.weighted(replyWeights(parentKind))];
    return { kind: `reply:${replyKind}`, template: rng.pick(REPLIES[replyKind]) };
  }
  const topKind = TOP_KINDS[rng.weighted(mood)];
  return { kind: topKind, template: rng.pick(TOP_LEVEL[topKind]) };
}

/** The template filled with the post's topics and people, sometimes an emoji or an @-mention of the creator. */
function commentBody(
  rng: Rng,
  sim: SimulatedPost,
  { kind, template }: { kind: Kind; template: string },
  parent: FetchedComment | null,
): string {
  const { post, subject, topics } = sim;
  const topic = rng.chance(0.5) ? topics[0] : rng.pick(topics);
  const other = topics.find((t) => t !== topic) ?? topic;
  let body = fill(template, {
    topic,
    topic2: other,
    creator: post.creator,
    parent: parent?.authorUsername ?? '',
    place: rng.pick(subject.places),
  });
  if (kind !== 'reply:creator' && rng.chance(0.18)) body += ` ${rng.pick(EMOJI_BY_MOOD[moodOf(kind)])}`;
  if (!parent && rng.chance(0.03)) body = `@${post.creator.username} ${body}`;
  return body;
}

/** Off-topic and hostile comments get few likes, replies fewer than top-level comments. */
function likeFactor(kind: Kind, isReply: boolean): number {
  if (kind === 'offTopic' || kind === 'hostile') return 0.3;
  return isReply ? 0.4 : 1;
}

/** How often the platform hides a comment of this kind. */
function hiddenChance(kind: Kind): number {
  if (kind === 'offTopic') return 0.3;
  return kind === 'hostile' || kind === 'reply:hostile' ? 0.25 : 0.01;
}

/**
 * The first `count` comments of the post's section, oldest first (a parent always precedes its
 * replies, so any prefix is a consistent thread). The sequence does not depend on `count`.
 */
export function simulateComments(sim: SimulatedPost, count: number, reference: Date): FetchedComment[] {
  const { post, key, totalComments } = sim;
  const rng = new Rng(`${post.link}#comments`);
  const mood = MOODS[MOOD_NAMES[rng.weighted(MOOD_WEIGHTS)]].map((w) => w * (0.6 + 0.8 * rng.next()));
  const replyRate = 0.15 + 0.3 * rng.next();
  const likeScale = Math.max(0.4, Math.sqrt(post.engagement.views) / 40);
  const start = Date.parse(post.postedAt);
  const window = Math.max(60_000, Math.min(14 * 24 * 3_600_000, reference.getTime() - start));
  const n = Math.min(count, totalComments);

  const comments: FetchedComment[] = [];
  const kinds: Kind[] = [];
  for (let i = 0; i < n; i++) {
    const parentIndex = replyParent(rng, i, replyRate);
    const parent = parentIndex >= 0 ? comments[parentIndex] : null;
    const drawn = commentKind(rng, parent ? kinds[parentIndex] : null, mood);
    const { kind } = drawn;
    const byCreator = kind === 'reply:creator';
    const body = commentBody(rng, sim, drawn, parent);

    const fraction = (i + rng.next()) / Math.max(1, totalComments);
    const postedAt = new Date(start + Math.floor(window * fraction * fraction)).toISOString();
    const earlyBoost = 1 + 3 * (1 - i / Math.max(1, totalComments));
    const likes = rng.longTail(likeScale * earlyBoost * likeFactor(kind, parent !== null));

    comments.push({
      id: `c_${key}_${i.toString(36)}`,
      parentId: parent?.id ?? null,
      authorUsername: byCreator ? post.creator.username : commenterName(rng),
      authorIsCreator: byCreator,
      body,
      likes: Math.min(likes, Math.max(post.engagement.likes, 0)),
      postedAt,
      hidden: rng.chance(hiddenChance(kind)),
    });
    kinds.push(kind);
  }
  return comments;
}
