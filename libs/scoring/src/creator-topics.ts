import type { CreatorMessage, CreatorTopic, ProviderPost } from '@analyst/contracts';
import { replaceEmoji } from './emoji';
import { contentStems, stem, STOPWORDS, words } from './text';
import { vader } from './third-party';
import { vaderCompound } from './vader';

/** Words that are framing, not subject: caption verbs, evaluations and video furniture. */
const FILLER = new Set(
  (
    'idea ideas step steps basics numbers number practice results result hype case fan big walkthrough breakdown break intro chapters chapter ' +
    'wrap-up follow honestly sorry video videos today part episode guide review tested test truth tells nobody admit wants become look means ' +
    'works work worth keeps failing makes life people years year change changes best worst great terrible awful amazing love hate broken ' +
    'misleading overrated waste money matters matter actually really need needs new first time times everything tried ' +
    'try going happened problem talks talking plain english under minutes honest dark side done right beginner defense deep dive stop doing ' +
    'mistakes everyone only city data says managers quarter'
  ).split(' '),
);
/** Evaluative words strong enough that a phrase holding one is an opinion, not a topic. */
const STRONG_VALENCE = 1.8;
const SENTENCE = /[^.!?\n]+[.!?]*/g;
const MAX_TOPICS = 4;

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

interface Candidate {
  phrase: string;
  stems: string[];
  score: number;
  /** Sentences (the title counting as one) and hashtags using it. */
  places: number;
  firstAt: number;
}

function isPhraseWord(word: string, creatorWords: Set<string>): boolean {
  if (
    word.length < 2 ||
    STOPWORDS.has(word) ||
    FILLER.has(word) ||
    creatorWords.has(word) ||
    /^\d+$/.test(word)
  )
    return false;
  return Math.abs(lexiconValence(word)) < STRONG_VALENCE;
}

function sentencesOf(text: string): string[] {
  return (text.match(SENTENCE) ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}

/**
 * Keyphrases: runs of 1-3 consecutive topic words (no stopwords, framing words, creator names or strong
 * evaluations) scored by how many sentences use them, with a bonus in the title, for multi-word
 * phrases and for hashtags; a single word must be used in two places (title, sentences, hashtags). The top phrases (at least a third of the best score, at most four) are the topics.
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
  const sentences: { text: string; inTitle: boolean }[] = [];
  const push = (text: string, inTitle: boolean) => {
    for (const s of sentencesOf(plain(text))) {
      const key = s.toLowerCase();
      if (!inTitle && seen.has(key)) continue;
      if (!inTitle) seen.add(key);
      sentences.push({ text: s, inTitle });
    }
  };
  push(post.title, true);
  push(post.caption, false);
  if (post.description) push(post.description, false);

  const candidates = new Map<string, Candidate>();
  let order = 0;
  sentences.forEach(({ text, inTitle }) => {
    const tokens = words(text);
    const inSentence = new Set<string>();
    let run: string[] = [];
    const flush = () => {
      for (let len = Math.min(3, run.length); len >= 1; len--) {
        for (let i = 0; i + len <= run.length; i++) {
          const phrase = run.slice(i, i + len).join(' ');
          if (inSentence.has(phrase)) continue;
          inSentence.add(phrase);
          const c = candidates.get(phrase) ?? {
            phrase,
            stems: run.slice(i, i + len).map(stem),
            score: 0.5 * (len - 1),
            places: 0,
            firstAt: order++,
          };
          c.score += 1 + (inTitle ? 1 : 0);
          c.places++;
          candidates.set(phrase, c);
        }
      }
      run = [];
    };
    for (const t of tokens) {
      if (isPhraseWord(t, creatorWords)) run.push(t);
      else flush();
    }
    flush();
  });
  for (const tag of hashtags) {
    const c = candidates.get(tag);
    if (c) {
      c.score += 0.5;
      c.places++;
    }
  }

  const ranked = [...candidates.values()].sort(
    (a, b) => b.score - a.score || b.stems.length - a.stems.length || a.firstAt - b.firstAt,
  );
  const best = ranked[0]?.score ?? 0;
  const chosen: Candidate[] = [];
  for (const c of ranked) {
    if (chosen.length >= MAX_TOPICS || c.score < Math.max(1, best / 3)) break;
    // A lone word used once ("fix" in a title) is too weak to be a topic.
    if (c.stems.length === 1 && c.places < 2) continue;
    // A phrase inside a chosen phrase (or holding one) is the same topic.
    if (chosen.some((k) => k.phrase.includes(c.phrase) || c.phrase.includes(k.phrase))) continue;
    chosen.push(c);
  }
  chosen.sort((a, b) => a.firstAt - b.firstAt);

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
