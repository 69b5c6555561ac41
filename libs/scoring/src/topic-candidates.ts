import { nounPhrases } from './noun-phrases';
import { tagSentence } from './part-of-speech';
import { stem } from './text';
import { FRAMING_NOUNS } from './topic-words';

const MAX_TOPICS = 4;
const NUMBER = /^\d+$/;

/** A noun phrase of the creator's text, with where it is used. */
export interface TopicCandidate {
  /** Its first form, lowercase ("family recipe"). */
  phrase: string;
  words: string[];
  /** Stems of the words (numbers as they are): what makes two phrases the same. */
  keys: string[];
  /** Stems without numbers: what comments must mention to engage with it. */
  stems: string[];
  score: number;
  /** Sentences (the title counting as one) and hashtags using it. */
  places: number;
  /** A lone word: some sentence uses it outside any longer phrase ("the lasagna", not only "index funds"). */
  standsAlone: boolean;
  firstAt: number;
}

export interface CreatorSentence {
  text: string;
  inTitle: boolean;
}

/**
 * Every noun phrase of the sentences, scored +1 per sentence using it (+1 more in the title), +0.5
 * per extra word and +0.5 as a hashtag. Inflections are the same phrase ("family recipe", "family
 * recipes"); the first form names it.
 */
export function topicCandidates(
  sentences: readonly CreatorSentence[],
  hashtags: readonly string[],
  usable: (word: string) => boolean,
  evaluative: (word: string) => boolean,
): TopicCandidate[] {
  const candidates = new Map<string, TopicCandidate>();
  let order = 0;
  for (const { text, inTitle } of sentences) {
    const inSentence = new Set<string>();
    const phrases = nounPhrases(tagSentence(text), usable, evaluative);
    for (const phraseWords of phrases) {
      const keys = phraseWords.map((w) => (NUMBER.test(w) ? w : stem(w)));
      const key = keys.join(' ');
      if (inSentence.has(key)) continue;
      inSentence.add(key);
      const c = candidates.get(key) ?? {
        phrase: phraseWords.join(' '),
        words: phraseWords,
        keys,
        stems: keys.filter((k) => !NUMBER.test(k)),
        score: 0.5 * (phraseWords.length - 1),
        places: 0,
        standsAlone: false,
        firstAt: order++,
      };
      c.score += 1 + (inTitle ? 1 : 0);
      c.places++;
      if (phraseWords.length === 1)
        c.standsAlone ||= !phrases.some((p) => p.length > 1 && p.includes(phraseWords[0]));
      candidates.set(key, c);
    }
  }
  for (const tag of hashtags) {
    const c = candidates.get(stem(tag));
    if (c) {
      c.score += 0.5;
      c.places++;
    }
  }
  return [...candidates.values()];
}

/** Whether `inner` occurs as consecutive words of `outer`. */
function holds(outer: readonly string[], inner: readonly string[]): boolean {
  for (let i = 0; i + inner.length <= outer.length; i++) {
    if (inner.every((w, j) => outer[i + j] === w)) return true;
  }
  return false;
}

/** Whether one phrase ends with the words the other starts with ("open world" and "world design"). */
function overlaps(a: readonly string[], b: readonly string[]): boolean {
  const endsInto = (x: readonly string[], y: readonly string[]) => {
    for (let n = 1; n < Math.min(x.length, y.length); n++) {
      if (holds(x.slice(x.length - n), y.slice(0, n))) return true;
    }
    return false;
  };
  return endsInto(a, b) || endsInto(b, a);
}

/**
 * Whether a longer phrase takes the place of the chosen ones it holds: used in two places it names
 * one more precisely ("travel" → "solo travel"); holding two it names both ("sourdough", "starter" →
 * "sourdough starter"); never when all it adds is framing ("foldable phones matters").
 */
function namesMorePrecisely(c: TopicCandidate, held: readonly TopicCandidate[]): boolean {
  const added = c.words.filter((_, i) => !held.some((k) => k.keys.includes(c.keys[i])));
  if (added.length > 0 && added.every((w) => FRAMING_NOUNS.has(w))) return false;
  return c.places >= 2 || held.length >= 2;
}

/**
 * The topics: the best phrases (at least a third of the best score, at most four), one per subject,
 * in order of appearance.
 */
export function chooseTopics(candidates: readonly TopicCandidate[]): TopicCandidate[] {
  const ranked = [...candidates].sort(
    (a, b) => b.score - a.score || b.words.length - a.words.length || a.firstAt - b.firstAt,
  );
  const best = ranked[0]?.score ?? 0;
  const chosen: TopicCandidate[] = [];
  // The chosen phrases and those a longer phrase took the place of: their pieces are taken.
  const taken: TopicCandidate[] = [];
  for (const c of ranked) {
    if (c.score < Math.max(1, best / 3)) break;
    // A lone word used once ("fix" in a title), or only inside longer phrases ("fund" of "index funds"
    // and "emergency fund"), is too weak to be a topic.
    if (c.words.length === 1 && (c.places < 2 || !c.standsAlone)) continue;
    // A phrase inside a chosen one, or overlapping one ("open world", "world design"), is the same topic.
    if (taken.some((k) => holds(k.keys, c.keys) || overlaps(k.keys, c.keys))) continue;
    const held = chosen.filter((k) => holds(c.keys, k.keys));
    if (held.length > 0) {
      if (!namesMorePrecisely(c, held)) continue;
      const at = chosen.indexOf(held[0]);
      chosen[at] = { ...c, firstAt: Math.min(c.firstAt, ...held.map((k) => k.firstAt)) };
      for (const k of held.slice(1)) chosen.splice(chosen.indexOf(k), 1);
      taken.push(c);
    } else if (chosen.length < MAX_TOPICS) {
      chosen.push(c);
      taken.push(c);
    }
  }
  return chosen.sort((a, b) => a.firstAt - b.firstAt);
}
