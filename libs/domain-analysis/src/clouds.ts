import { bucketOf, type BucketKey, type ScoreVersion } from '@analyst/contracts';
import type { CommentColumns } from './columns';
import { isOffTopic } from './off-topic';
import { percentOf, roundTo } from './rollup-settings';
import { sentimentReadingAt } from './sentiment-reading';
import type { Vocabulary } from './vocabulary';

export interface WordCloudItem {
  text: string;
  /** Matched comments that use the word or phrase. */
  value: number;
  type: 'word' | 'phrase';
  /** Mean sentiment reading of those comments, 1 to 10. */
  avgSentiment: number;
  /** The sentiment bucket of avgSentiment (bucketOf), e.g. positive, lean_negative. */
  sentimentCategory: BucketKey;
  /** value / matched comments × 100. */
  mentionPercentage: number;
}

export interface EmojiCloudItem {
  emoji: string;
  value: number;
  avgSentiment: number;
  sentimentCategory: BucketKey;
  mentionPercentage: number;
}

export const CLOUD_LIMITS = { words: 40, phrases: 10, emoji: 20, minPhraseComments: 2 } as const;

interface Tally {
  value: number;
  sum: number;
  scored: number;
}

/**
 * Items by value, ties in the order of their text (code units): the same on every replica whatever
 * order its vocabulary interned the terms in (interning order follows what a process loaded first).
 */
function items<T>(
  tallies: Map<number, Tally>,
  limit: number,
  minValue: number,
  matched: number,
  version: ScoreVersion,
  textOf: (key: number) => string,
  make: (key: number, base: Omit<WordCloudItem, 'text' | 'type'>) => T,
): T[] {
  const text = new Map<number, string>();
  const textAt = (key: number): string => {
    let t = text.get(key);
    if (t === undefined) text.set(key, (t = textOf(key)));
    return t;
  };
  return [...tallies.entries()]
    .filter(([, t]) => t.value >= minValue && t.scored > 0)
    .sort((a, b) => {
      if (b[1].value !== a[1].value) return b[1].value - a[1].value;
      const x = textAt(a[0]);
      const y = textAt(b[0]);
      return x < y ? -1 : x > y ? 1 : 0;
    })
    .slice(0, limit)
    .map(([key, t]) => {
      const avg = t.sum / t.scored;
      return make(key, {
        value: t.value,
        avgSentiment: roundTo(avg, 2),
        sentimentCategory: bucketOf('sentiment', avg, version),
        mentionPercentage: percentOf(t.value, matched, 1),
      });
    });
}

function tally(map: Map<number, Tally>, key: number, reading: number): void {
  let t = map.get(key);
  if (!t) map.set(key, (t = { value: 0, sum: 0, scored: 0 }));
  t.value++;
  if (reading === reading) {
    t.sum += reading;
    t.scored++;
  }
}

/**
 * Words (stopwords out) and two-word phrases (adjacent non-stopwords, in at least 2 comments) by
 * the number of matched comments using them; each comment counts a term once. Off-topic comments
 * (spam included) feed no term; mentionPercentage stays a share of all matched comments.
 */
export function wordCloud(
  columns: CommentColumns,
  rows: ArrayLike<number>,
  vocab: Vocabulary,
  version: ScoreVersion,
): WordCloudItem[] {
  const words = new Map<number, Tally>();
  const phrases = new Map<number, Tally>();
  const seenWord = new Int32Array(vocab.size).fill(-1);
  const size = vocab.size;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (isOffTopic(columns.relevance[r])) continue;
    const reading = sentimentReadingAt(columns, r, version);
    const seenPhrases = new Set<number>();
    let previous = -1;
    for (let k = columns.tokenStart[r]; k < columns.tokenStart[r + 1]; k++) {
      const id = columns.tokenIds[k];
      if (vocab.kind(id) !== 'word' || vocab.isStop(id)) {
        previous = -1;
        continue;
      }
      if (seenWord[id] !== i) {
        seenWord[id] = i;
        tally(words, id, reading);
      }
      if (previous >= 0 && previous !== id) {
        const key = previous * size + id;
        if (!seenPhrases.has(key)) {
          seenPhrases.add(key);
          tally(phrases, key, reading);
        }
      }
      previous = id;
    }
  }
  const matched = rows.length;
  const phraseText = (key: number): string =>
    `${vocab.term(Math.floor(key / size))} ${vocab.term(key % size)}`;
  return [
    ...items(
      words,
      CLOUD_LIMITS.words,
      1,
      matched,
      version,
      (id) => vocab.term(id),
      (id, base) => ({ text: vocab.term(id), type: 'word' as const, ...base }),
    ),
    ...items(
      phrases,
      CLOUD_LIMITS.phrases,
      CLOUD_LIMITS.minPhraseComments,
      matched,
      version,
      phraseText,
      (key, base) => ({ text: phraseText(key), type: 'phrase' as const, ...base }),
    ),
  ];
}

/** Emoji by the number of matched comments using them (off-topic ones left out), with the same sentiment fields. */
export function emojiCloud(
  columns: CommentColumns,
  rows: ArrayLike<number>,
  vocab: Vocabulary,
  version: ScoreVersion,
): EmojiCloudItem[] {
  const emoji = new Map<number, Tally>();
  const seen = new Int32Array(vocab.size).fill(-1);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (columns.hasEmoji[r] === 0 || isOffTopic(columns.relevance[r])) continue;
    const reading = sentimentReadingAt(columns, r, version);
    for (let k = columns.tokenStart[r]; k < columns.tokenStart[r + 1]; k++) {
      const id = columns.tokenIds[k];
      if (vocab.kind(id) !== 'emoji' || seen[id] === i) continue;
      seen[id] = i;
      tally(emoji, id, reading);
    }
  }
  return items(
    emoji,
    CLOUD_LIMITS.emoji,
    1,
    rows.length,
    version,
    (id) => vocab.term(id),
    (id, base) => ({ emoji: vocab.term(id), ...base }),
  );
}
