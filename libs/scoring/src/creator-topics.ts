import type { CreatorMessage, CreatorTopic, ProviderPost } from '@analyst/contracts';
import { replaceEmoji } from './emoji';
import { contentStems, STOPWORDS, words } from './text';
import { chooseTopics, topicCandidates, type CreatorSentence } from './topic-candidates';
import { CLOSED_CLASS } from './topic-words';
import { vader } from './third-party';
import { vaderCompound } from './vader';

/** Evaluative words strong enough that a phrase holding one is an opinion, not a topic. */
const STRONG_VALENCE = 1.8;
const SENTENCE = /[^.!?\n]+[.!?]*/g;
/** A call to subscribe, follow, stream or shop is a plug, not the subject ("Stream it on Spotify"). */
const PLUG =
  /^\s*(?:subscribe|follow|stream|listen|shop|download|pre-?save|share|click|tap|join)\b|\bsubscribe\b|\blink in (?:my )?bio\b/i;

export interface ExtractedTopic extends CreatorTopic {
  /** Stems of the topic phrase (what comments must mention to engage with it). */
  stems: string[];
}

export interface CreatorSide {
  topics: ExtractedTopic[];
  messages: CreatorMessage[];
  /** messageIndexByTopic[i]: the message about topic i, or null. */
  messageIndexByTopic: (number | null)[];
  /** Stems of every content word of the title, caption and description. */
  postStems: Set<string>;
}

/** A word a topic may hold: not a function word, a creator's name or a strong evaluation. */
function isTopicWord(word: string, creatorWords: Set<string>): boolean {
  if (word.length < 2 || STOPWORDS.has(word) || CLOSED_CLASS.has(word) || creatorWords.has(word))
    return false;
  return Math.abs(lexiconValence(word)) < STRONG_VALENCE;
}

const isEvaluative = (word: string): boolean => lexiconValence(word) !== 0;

function sentencesOf(text: string): string[] {
  return (text.match(SENTENCE) ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}

/**
 * Topics are noun phrases of the title, caption and description (`noun-phrases.ts`: tagged by winkNLP,
 * no function words, creator names or strong evaluations; plugs such as "Subscribe for more" left
 * out), scored and chosen by `topic-candidates.ts`.
 * Each topic's description and message come from the first caption (or description) sentence naming it,
 * else the title; its stance is that sentence's VADER compound:
 * >= 0.3 supports, <= -0.3 criticizes, a question questions, otherwise explains.
 */
export function extractCreatorSide(post: ProviderPost): CreatorSide {
  const creatorWords = new Set(words(`${post.creator.name} ${post.creator.username}`));
  const hashtags = (post.caption.match(/#[\p{L}\p{N}_]+/gu) ?? []).map((h) => h.slice(1).toLowerCase());
  const plain = (text: string) =>
    replaceEmoji(text.replace(/#[\p{L}\p{N}_]+/gu, ' ').replace(/\d+:\d+/g, ' '));
  // The title is its own place even when it repeats the caption's lead; the caption and description
  // often repeat each other (YouTube), so their sentences count once.
  const seen = new Set<string>();
  const sentences: CreatorSentence[] = [];
  const push = (text: string, inTitle: boolean) => {
    for (const s of sentencesOf(plain(text))) {
      if (PLUG.test(s)) continue;
      const key = s.toLowerCase();
      if (!inTitle && seen.has(key)) continue;
      if (!inTitle) seen.add(key);
      sentences.push({ text: s, inTitle });
    }
  };
  push(post.title, true);
  push(post.caption, false);
  if (post.description) push(post.description, false);

  const usable = (word: string) => isTopicWord(word, creatorWords);
  const chosen = chooseTopics(topicCandidates(sentences, hashtags, usable, isEvaluative));

  const topics: ExtractedTopic[] = [];
  const messages: CreatorMessage[] = [];
  const messageIndexByTopic: (number | null)[] = [];
  for (const c of chosen) {
    // The caption states the creator's position; the title is the fallback.
    const naming = (s: { text: string }) => s.text.toLowerCase().includes(c.phrase);
    const sentence = sentences.find((s) => !s.inTitle && naming(s)) ?? sentences.find(naming);
    topics.push({
      title: c.phrase,
      description: sentence ? sentence.text.slice(0, 200) : null,
      stems: c.stems,
    });
    if (!sentence) {
      messageIndexByTopic.push(null);
      continue;
    }
    const compound = vaderCompound(sentence.text);
    const stance = sentence.text.includes('?')
      ? 'questions'
      : compound >= 0.3
        ? 'supports'
        : compound <= -0.3
          ? 'criticizes'
          : 'explains';
    messageIndexByTopic.push(messages.length);
    messages.push({ topic: c.phrase, stance });
  }

  const postStems = new Set(contentStems(words(`${post.title} ${post.caption} ${post.description ?? ''}`)));
  for (const t of topics) for (const s of t.stems) postStems.add(s);
  return { topics, messages, messageIndexByTopic, postStems };
}

const valenceCache = new Map<string, number>();

/** A word's valence in the VADER lexicon (0 when absent), read through the port (it exports no lexicon). */
export function lexiconValence(word: string): number {
  let v = valenceCache.get(word);
  if (v === undefined) {
    v = vader.sentiment_valence(0, { words_and_emoticons: [word], is_cap_diff: false }, word, 0, [])[0];
    valenceCache.set(word, v);
  }
  return v;
}
