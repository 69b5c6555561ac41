import { EMOTIONS, type Emotion } from '@analyst/contracts';
import type { CommentColumns } from './columns';
import { ROLLUP_CONSTANTS, percentOf } from './rollup-settings';

/**
 * The emotions mix (`commentAnalysis.emotions`, an extension of the spec): the share of the matched
 * comments that have an emotion in each of the seven, 0 to 100 each.
 */
export interface EmotionMix {
  angerPercent: number;
  disgustPercent: number;
  fearPercent: number;
  joyPercent: number;
  sadnessPercent: number;
  surprisePercent: number;
  neutralPercent: number;
}

export const EMOTION_MIX_FIELD: Record<Emotion, keyof EmotionMix> = {
  anger: 'angerPercent',
  disgust: 'disgustPercent',
  fear: 'fearPercent',
  joy: 'joyPercent',
  sadness: 'sadnessPercent',
  surprise: 'surprisePercent',
  neutral: 'neutralPercent',
};

/** The mix of no comments: every share 0. */
export const EMPTY_EMOTION_MIX: EmotionMix = Object.freeze({
  angerPercent: 0,
  disgustPercent: 0,
  fearPercent: 0,
  joyPercent: 0,
  sadnessPercent: 0,
  surprisePercent: 0,
  neutralPercent: 0,
});

/** Comments of the rows per emotion, in EMOTIONS order; comments without one are not counted. */
export function emotionCounts(columns: CommentColumns, rows: ArrayLike<number>): Uint32Array {
  const counts = new Uint32Array(EMOTIONS.length);
  const emotion = columns.emotion;
  for (let i = 0; i < rows.length; i++) {
    const code = emotion[rows[i]];
    if (code < counts.length) counts[code]++;
  }
  return counts;
}

/**
 * The mix the way the five-bucket mixes are made (`mixOf`): comment counts, never weights, each
 * share rounded to 0.1 on its own, so the seven add up to 100 within rounding and a share is exactly
 * what a sample filtered on that emotion returns. The whole is the comments that have an emotion:
 * a comment not read (another language, scored before emotions) is in no share. None: every share 0.
 */
export function emotionMixOf(counts: ArrayLike<number>): EmotionMix {
  let total = 0;
  for (let i = 0; i < EMOTIONS.length; i++) total += counts[i];
  if (total === 0) return { ...EMPTY_EMOTION_MIX };
  const mix = {} as EmotionMix;
  EMOTIONS.forEach((emotion, i) => {
    mix[EMOTION_MIX_FIELD[emotion]] = percentOf(counts[i], total, ROLLUP_CONSTANTS.percentDecimals);
  });
  return mix;
}

/** The emotions mix of these rows (already filtered: hidden comments out). */
export function emotionMix(columns: CommentColumns, rows: ArrayLike<number>): EmotionMix {
  return emotionMixOf(emotionCounts(columns, rows));
}

/** The rows whose emotion is one of `emotions` (a sample's `emotion` filter), in their order. */
export function rowsWithEmotion(
  columns: CommentColumns,
  rows: ArrayLike<number>,
  emotions: readonly Emotion[],
): Uint32Array {
  const wanted = new Uint8Array(256);
  for (const e of emotions) wanted[EMOTIONS.indexOf(e)] = 1;
  const emotion = columns.emotion;
  const out = new Uint32Array(rows.length);
  let n = 0;
  for (let i = 0; i < rows.length; i++) if (wanted[emotion[rows[i]]] === 1) out[n++] = rows[i];
  return out.slice(0, n);
}
