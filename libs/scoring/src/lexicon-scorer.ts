import type {
  CommentScorer,
  Emotion,
  FetchedComment,
  PostScoring,
  ProviderPost,
  ScoredComment,
} from '@analyst/contracts';
import {
  AGREE,
  CLAUSE,
  CREATOR_WORDS,
  DISAGREE,
  HOSTILE,
  MEDIUM_WORDS,
  NEGATED_AGREE,
  TAKE,
} from './comment-signals';
import { extractCreatorSide, type CreatorSide } from './creator-topics';
import { replaceEmoji } from './emoji';
import { emotionOf } from './emotion';
import { detectLanguage } from './language';
import { contentStems, STOPWORDS, words } from './text';
import { readCompound } from './sentiment-reader';
import { SLANG } from './slang';
import { isSpam } from './spam';
import { compoundToScore, LEXICON } from './vader';

export const SCORER_NAME = 'analyst-lexicon';
// 1.1.0: comments in a language the lexicon cannot read are unscored (and carry their language).
// 2.0.0: trained English sentiment (blended with VADER), Spanish, Portuguese, French, German and
// Italian read by their own trained heads, spam and promotion detected by weighted signals
// (off-topic), noun-phrase creator topics. Posts scored before keep the version they were scored with.
// 2.1.0: an emotion for each comment read as English (the emotion head beside the English model).
export const SCORER_VERSION = '2.1.0';

/** Neutral band of VADER's compound (the reference tool's own threshold). */
const NEUTRAL_COMPOUND = 0.05;

/** What one pass over a comment's text finds. */
interface Reading {
  compound: number;
  /**
   * False for an empty body, or one in a language the lexicon cannot read: no reading at all, so
   * every sentiment-derived score is null (unscored, never neutral).
   */
  scored: boolean;
  /** ISO 639-1 code, or null when it cannot be told (then read as English). */
  language: string | null;
  /** Read for a comment read as English (language en or undetermined); null otherwise. */
  emotion: Emotion | null;
  /** Mean compound of the clauses about the creator / post, and about the topics; null when none. */
  creatorCompound: number | null;
  topicCompound: number | null;
  topicIndex: number | null;
  ownRelevance: number;
  spam: boolean;
  agree: boolean;
  disagree: boolean;
  hostile: boolean;
  negatedAgree: boolean;
}

interface PostContext {
  side: CreatorSide;
  creatorTokens: Set<string>;
  mention: string;
  /** Topic stem → indices of the topics holding it. */
  topicOfStem: Map<string, number[]>;
  topicStems: Set<string>;
}

/**
 * Readings derived from the compound keep 3 decimals: inside the calibrated neutral band the scale is
 * flat (compound 0 .. 0.35 spans 5 .. 5.5), so 2 decimals would move a reading by up to 0.007 compound
 * and flip comments across VADER's ±0.05.
 */
function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
function clampScore(x: number): number {
  return x < 1 ? 1 : x > 10 ? 10 : x;
}

function refersToCreator(tokens: readonly string[], lower: string, ctx: PostContext): boolean {
  for (const t of tokens) if (CREATOR_WORDS.has(t) || ctx.creatorTokens.has(t)) return true;
  return lower.includes(ctx.mention) || TAKE.test(lower);
}

function refersToTopic(stems: readonly string[], ctx: PostContext): boolean {
  for (const s of stems) if (ctx.topicStems.has(s)) return true;
  return false;
}

/**
 * LexiconScorer: VADER (emoji-aware) sentiment, split into content (clauses about the creator or post)
 * and topic (clauses about the post's topics); relevance from stemmed overlap with the post;
 * consensus from how replies and parents react to each other. Rules are in the README.
 */
export class LexiconScorer implements CommentScorer {
  readonly name = SCORER_NAME;
  readonly version = SCORER_VERSION;

  scorePost(post: ProviderPost, comments: FetchedComment[]): PostScoring {
    const side = extractCreatorSide(post);
    const ctx = this.context(post, side);
    const readings = comments.map((c) => this.read(c.body, ctx));
    const indexById = new Map<string, number>();
    comments.forEach((c, i) => indexById.set(c.id, i));
    const parentOf = comments.map((c) => (c.parentId === null ? -1 : (indexById.get(c.parentId) ?? -1)));

    // Stance of each reply toward its parent, -1 (fighting) .. 1 (agreeing).
    const stance = comments.map((c, i) =>
      parentOf[i] < 0 ? 0 : replyStance(readings[i], readings[parentOf[i]], c.authorIsCreator),
    );
    const replySum = new Float64Array(comments.length);
    const replyCount = new Uint32Array(comments.length);
    parentOf.forEach((p, i) => {
      if (p >= 0) {
        replySum[p] += stance[i];
        replyCount[p]++;
      }
    });
    const likesRef = likesReference(comments);
    const scorer = { name: this.name, version: this.version };

    const scored: ScoredComment[] = comments.map((c, i) => {
      const r = readings[i];
      const parent = parentOf[i];
      const relevance =
        parent >= 0 && !r.spam && r.topicIndex === null
          ? Math.min(7, (r.ownRelevance + readings[parent].ownRelevance) / 2)
          : r.ownRelevance;
      const { content, topic } = this.contentAndTopic(r, relevance, side);
      const likes = Math.min(1, Math.log1p(Math.max(0, c.likes)) / Math.log1p(likesRef));
      const consensus = consensusScore(
        replyCount[i] ? replySum[i] / replyCount[i] : null,
        replyCount[i],
        parent >= 0 ? stance[i] : null,
        likes,
      );
      const engaged =
        r.topicIndex !== null &&
        (Math.abs(r.topicCompound ?? 0) >= NEUTRAL_COMPOUND || r.agree || r.disagree);
      return {
        commentId: c.id,
        scores: {
          sentiment: r.scored ? round3(compoundToScore(r.compound)) : null,
          content: content === null ? null : round3(content),
          topic: topic === null ? null : round3(topic),
          relevance: round2(clampScore(relevance)),
          consensus: round2(clampScore(consensus)),
        },
        topicIndex: r.topicIndex,
        messageIndex: engaged ? side.messageIndexByTopic[r.topicIndex!] : null,
        language: r.language,
        emotion: r.emotion,
        scorer,
      };
    });
    return {
      topics: side.topics.map(({ title, description }) => ({ title, description })),
      messages: side.messages,
      comments: scored,
    };
  }

  private context(post: ProviderPost, side: CreatorSide): PostContext {
    const creatorTokens = new Set(words(post.creator.username));
    const first = words(post.creator.name)[0];
    if (first && first.length >= 3) creatorTokens.add(first);
    const topicOfStem = new Map<string, number[]>();
    side.topics.forEach((t, i) => {
      for (const s of t.stems) topicOfStem.set(s, [...(topicOfStem.get(s) ?? []), i]);
    });
    return {
      side,
      creatorTokens,
      mention: `@${post.creator.username.toLowerCase()}`,
      topicOfStem,
      topicStems: new Set(topicOfStem.keys()),
    };
  }

  private read(body: string, ctx: PostContext): Reading {
    const lower = body.toLowerCase();
    const text = replaceEmoji(body);
    // Words of the comment itself: emoji names feed sentiment only, never relevance or targets.
    const tokens = words(body);
    const stems = contentStems(tokens);
    const language = detectLanguage(body);
    const read = readCompound(text, language);
    // Asked right after the sentiment of the same text, so the emotion head reads the features the
    // English model has just extracted (english-features.ts keeps the last text's) instead of again.
    const emotion = language === null || language === 'en' ? emotionOf(body) : null;
    const readable = read !== null;
    // A comment no reader reads carries no reading: a compound of 0 for the reply stances.
    const compound = read ?? 0;
    const spam = isSpam(lower);
    // "my channel" in a promotion is the spammer's channel, not the creator's.
    const toCreator = !spam && refersToCreator(tokens, lower, ctx);
    const toTopic = refersToTopic(stems, ctx);

    let creatorCompound = toCreator ? compound : null;
    let topicCompound = toTopic ? compound : null;
    if (toCreator && toTopic) {
      const byClause = clauseCompounds(text, language, ctx);
      if (byClause) {
        creatorCompound = byClause.creator ?? creatorCompound;
        topicCompound = byClause.topic ?? topicCompound;
      }
    }
    const { topicIndex, matchedTopicStems, matchedPostStems } = topicEngaged(stems, ctx);
    const ownRelevance = spam
      ? 1.5
      : ownRelevanceOf(
          toCreator,
          matchedTopicStems,
          matchedPostStems,
          // A post that says next to nothing ("Artist - Song (Official Video)") cannot tell talk about something else.
          ctx.side.postStems.size >= POST_STEMS_TO_JUDGE_OFF_TOPIC ? subjectWordCount(tokens) : 0,
        );
    return {
      compound,
      scored: readable && isScorable(body),
      language,
      emotion,
      creatorCompound,
      topicCompound,
      topicIndex,
      ownRelevance,
      spam,
      agree: AGREE.test(lower),
      disagree: DISAGREE.test(lower),
      hostile: HOSTILE.test(lower),
      negatedAgree: NEGATED_AGREE.test(lower),
    };
  }

  /**
   * content / topic: the side(s) a comment targets get their clauses' sentiment. A comment that targets
   * neither reacts to the post as a whole: both take its overall sentiment. Targeting only the topic,
   * its content is its agreement with the creator's message on that topic (same score when the creator
   * supports it, the opposite compound when the creator criticizes it, overall sentiment when the post explains).
   * Targeting only the creator, topic takes the overall sentiment. An off-topic comment (relevance < 3)
   * has no signal for a side it does not target: null.
   */
  private contentAndTopic(
    r: Reading,
    relevance: number,
    side: CreatorSide,
  ): { content: number | null; topic: number | null } {
    if (!r.scored) return { content: null, topic: null };
    const overall = compoundToScore(r.compound);
    const offTopic = relevance < 3;
    const creator = r.creatorCompound === null ? null : compoundToScore(r.creatorCompound);
    const topic = r.topicCompound === null ? null : compoundToScore(r.topicCompound);
    if (creator === null && topic === null)
      return offTopic ? { content: null, topic: null } : { content: overall, topic: overall };
    if (creator !== null && topic !== null) return { content: creator, topic };
    if (topic !== null)
      return { content: offTopic ? null : agreementWithCreator(r, side, topic, overall), topic };
    return { content: creator, topic: offTopic ? null : overall };
  }
}

/**
 * The content score of a comment that targets only the topic: its agreement with the creator's
 * message on that topic, by the creator's stance (overall sentiment when the post explains).
 */
function agreementWithCreator(r: Reading, side: CreatorSide, topic: number, overall: number): number {
  const m = r.topicIndex === null ? null : side.messageIndexByTopic[r.topicIndex];
  const stance = m === null ? null : side.messages[m].stance;
  if (stance === 'supports') return topic;
  // Agreement with a creator who criticizes the topic: the topic score mirrored around 5 on the 1-10 scale,
  // so the v2/v3 average of the two is 5 (no lean), never a reading of the opposite sign. Mirroring the
  // compound instead gave 5 + |c|/2 whatever the sign ("Open world design is a scam" 2.71 → 5.285).
  if (stance === 'criticizes') return Math.max(1, 10 - round3(topic));
  return overall;
}

/** A body with something to read; an empty one is unscored (NaN / null), not neutral. */
function isScorable(body: string): boolean {
  return body.trim().length > 0;
}

/**
 * The 1-10 sentiment reading score version 1 stores for a comment with this body: the VADER compound
 * (reference rules, emoji and slang read, see README) mapped by compoundToScore and rounded to 3
 * decimals; 5 (neutral) when no word carries sentiment; NaN when the body is unscored (empty, or in a
 * language the lexicon cannot read).
 */
export function sentimentOf(text: string): number {
  if (!isScorable(text)) return Number.NaN;
  const compound = readCompound(replaceEmoji(text), detectLanguage(text));
  return compound === null ? Number.NaN : round3(compoundToScore(compound));
}

/** A reply's reaction to its parent: explicit markers first, then sentiment alignment. */
function replyStance(reply: Reading, parent: Reading, byCreator: boolean): number {
  if (reply.hostile) return -1;
  if (reply.negatedAgree) return -0.8;
  // An explicit agreement wins over a disagreement marker ("Agreed, that's not how it works" sides with the parent).
  if (reply.agree) return 0.9;
  if (reply.disagree) return -0.8;
  if (byCreator && reply.compound >= 0) return 0.5;
  const rc = reply.compound;
  const pc = parent.compound;
  if (Math.abs(rc) < NEUTRAL_COMPOUND) return 0.1;
  if (Math.abs(pc) < NEUTRAL_COMPOUND) return rc > 0 ? 0.4 : -0.3;
  return Math.sign(rc) === Math.sign(pc) ? 0.4 : -0.5;
}

/**
 * Consensus 1-10. A comment with replies and/or a parent: weighted mean of the mean stance of its replies
 * (weight 1.5 + 0.5 per reply, at most 3), its own stance toward its parent (1.5) and its likes (0.5, as
 * 0..0.6), mapped by 5.5 + 4.5 x. A lone comment (no replies, no parent): 5 + 2 × likes, i.e. 5 to 7.
 */
function consensusScore(
  replyMean: number | null,
  replies: number,
  ownStance: number | null,
  likes: number,
): number {
  if (replyMean === null && ownStance === null) return 5 + 2 * likes;
  let sum = 0.5 * 0.6 * likes;
  let weight = 0.5;
  if (replyMean !== null) {
    const w = Math.min(3, 1.5 + 0.5 * replies);
    sum += w * replyMean;
    weight += w;
  }
  if (ownStance !== null) {
    sum += 1.5 * ownStance;
    weight += 1.5;
  }
  return 5.5 + 4.5 * (sum / weight);
}

/** Likes that count as "a lot" on this post: the 95th percentile, at least 10. */
function likesReference(comments: FetchedComment[]): number {
  if (comments.length === 0) return 10;
  const likes = comments.map((c) => c.likes).sort((a, b) => a - b);
  return Math.max(10, likes[Math.floor(0.95 * (likes.length - 1))]);
}

/**
 * A comment that refers to both the creator and a topic, split into clauses: the mean compound of
 * the clauses on the creator and of those on the topic (null for a side no clause names), or null
 * when the comment is one clause.
 */
function clauseCompounds(
  text: string,
  language: string | null,
  ctx: PostContext,
): { creator: number | null; topic: number | null } | null {
  const clauses = text.split(CLAUSE);
  if (clauses.length <= 1) return null;
  let sc = 0,
    nc = 0,
    st = 0,
    nt = 0;
  for (const clause of clauses) {
    const ct = words(clause);
    if (ct.length === 0) continue;
    // Clause text has emoji names spelled out; they are not creator or topic words, so matching stays the same.
    const cr = refersToCreator(ct, clause.toLowerCase(), ctx);
    const tr = refersToTopic(contentStems(ct), ctx);
    if (!cr && !tr) continue;
    const c = readCompound(clause, language) ?? 0;
    if (cr) {
      sc += c;
      nc++;
    }
    if (tr) {
      st += c;
      nt++;
    }
  }
  return { creator: nc ? sc / nc : null, topic: nt ? st / nt : null };
}

/**
 * The topic engaged with: the one whose stems the comment uses most (first on ties), and how many of
 * the comment's distinct stems are topic stems and post stems.
 */
function topicEngaged(
  stems: readonly string[],
  ctx: PostContext,
): { topicIndex: number | null; matchedTopicStems: number; matchedPostStems: number } {
  let topicIndex: number | null = null;
  let matchedTopicStems = 0;
  let matchedPostStems = 0;
  if (stems.length === 0) return { topicIndex, matchedTopicStems, matchedPostStems };
  const hits = new Map<number, number>();
  for (const s of new Set(stems)) {
    const topics = ctx.topicOfStem.get(s);
    if (topics) {
      matchedTopicStems++;
      for (const t of topics) hits.set(t, (hits.get(t) ?? 0) + 1);
    } else if (ctx.side.postStems.has(s)) matchedPostStems++;
  }
  let best = 0;
  for (const [t, n] of hits) {
    if (n > best || (n === best && topicIndex !== null && t < topicIndex)) {
      best = n;
      topicIndex = t;
    }
  }
  return { topicIndex, matchedTopicStems, matchedPostStems };
}

/**
 * Distinct content words the post's own text needs before a comment sharing none of them counts as talking
 * about something else: more than a bare title holds. Under a shorter post, such a comment is general.
 */
const POST_STEMS_TO_JUDGE_OFF_TOPIC = 8;

/**
 * The content words that name a subject of their own: not evaluative (a VADER or slang word judges, it
 * names nothing) and not a bare number. 0 when a word names the post's medium ("song", "views"): such a
 * comment is a reaction to the post, however many other words it has.
 */
function subjectWordCount(tokens: readonly string[]): number {
  let n = 0;
  for (const t of tokens) {
    if (MEDIUM_WORDS.has(t)) return 0;
    if (t.length < 2 || STOPWORDS.has(t) || LEXICON.has(t) || SLANG.has(t) || /^\d+$/.test(t)) continue;
    n++;
  }
  return n;
}

/**
 * A comment's own relevance (not spam): from whom it addresses and the topic and post stems it uses.
 * Off-topic (2.5) needs at least 3 subject words, none of which the post uses: talking about something else.
 */
function ownRelevanceOf(
  toCreator: boolean,
  matchedTopicStems: number,
  matchedPostStems: number,
  subjectWords: number,
): number {
  const base = toCreator ? 5.2 : matchedTopicStems + matchedPostStems === 0 && subjectWords >= 3 ? 2.5 : 4;
  return base + 1.6 * matchedTopicStems + 0.9 * matchedPostStems;
}
