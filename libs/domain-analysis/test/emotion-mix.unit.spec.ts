import { EMOTIONS, type Emotion } from '@analyst/contracts';
import {
  allRows,
  columnsOf,
  compactColumns,
  emotionCode,
  emotionMix,
  emotionMixOf,
  emotionOfCode,
  NO_EMOTION,
  rowsWithEmotion,
  withEmotions,
  type AnalysisResult,
  type CommentRow,
} from '../src';

const row = (emotion: Emotion | null | undefined, hidden = false): CommentRow => ({
  scores: { sentiment: 5, content: 5, topic: 5, relevance: 5, consensus: 5 },
  emotion,
  hidden,
});
const repeat = (n: number, emotion: Emotion | null | undefined): CommentRow[] =>
  Array.from({ length: n }, () => row(emotion));

describe('the emotion column', () => {
  it('holds an index into EMOTIONS, 255 for none, and reads back the name', () => {
    expect(EMOTIONS.map(emotionCode)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect([emotionCode(null), emotionCode(undefined), NO_EMOTION]).toEqual([255, 255, 255]);
    expect([0, 3, 6, 7, 255].map(emotionOfCode)).toEqual(['anger', 'joy', 'neutral', null, null]);
    const columns = columnsOf([row('fear'), row(null), row(undefined), row('surprise')]);
    expect(Array.from(columns.emotion.subarray(0, 4))).toEqual([2, 255, 255, 5]);
  });

  it('moves with its row when the columns are compacted, and is none in the room they grow into', () => {
    const columns = columnsOf([row('anger'), row('joy'), row(null), row('sadness')]);
    const { columns: kept } = compactColumns(columns, Uint8Array.from([0, 1, 1, 1]));
    expect(Array.from(kept.emotion.subarray(0, 3), emotionOfCode)).toEqual(['joy', null, 'sadness']);
    expect(kept.emotion[3]).toBe(NO_EMOTION);
  });
});

describe('the emotions mix', () => {
  it('counts the comments that have an emotion, each share rounded to 0.1 on its own', () => {
    // 12 comments: 9 with an emotion (3 joy, 2 anger, 2 neutral, 1 fear, 1 surprise), 3 without.
    const columns = columnsOf([
      ...repeat(3, 'joy'),
      ...repeat(2, 'anger'),
      ...repeat(2, 'neutral'),
      row('fear'),
      row('surprise'),
      row(null),
      row(undefined),
      row(null),
    ]);
    expect(emotionMix(columns, allRows(columns))).toEqual({
      angerPercent: 22.2,
      disgustPercent: 0,
      fearPercent: 11.1,
      joyPercent: 33.3,
      sadnessPercent: 0,
      surprisePercent: 11.1,
      neutralPercent: 22.2,
    });
  });

  it('is over the rows given (the matched comments), not the whole columns', () => {
    const columns = columnsOf([row('joy'), row('anger'), row('anger'), row('disgust')]);
    expect(emotionMix(columns, [1, 3])).toEqual({
      angerPercent: 50,
      disgustPercent: 50,
      fearPercent: 0,
      joyPercent: 0,
      sadnessPercent: 0,
      surprisePercent: 0,
      neutralPercent: 0,
    });
  });

  it('rounds half up on exact counts, as the five-bucket mixes do', () => {
    // 1 / 8 = 12.5% exactly; 3 / 8 = 37.5%.
    expect(emotionMixOf([1, 0, 3, 0, 1, 0, 3])).toEqual({
      angerPercent: 12.5,
      disgustPercent: 0,
      fearPercent: 37.5,
      joyPercent: 0,
      sadnessPercent: 12.5,
      surprisePercent: 0,
      neutralPercent: 37.5,
    });
    // 1 / 2000 = 0.05% rounds up to 0.1; 1999 / 2000 = 99.95% to 100.
    expect(emotionMixOf([1, 0, 0, 1999, 0, 0, 0])).toMatchObject({ angerPercent: 0.1, joyPercent: 100 });
  });

  it('is 0 on every share when no matched comment has an emotion (like a mix of no comments)', () => {
    const zero = {
      angerPercent: 0,
      disgustPercent: 0,
      fearPercent: 0,
      joyPercent: 0,
      sadnessPercent: 0,
      surprisePercent: 0,
      neutralPercent: 0,
    };
    const columns = columnsOf([row(null), row(undefined)]);
    expect(emotionMix(columns, allRows(columns))).toEqual(zero);
    expect(emotionMix(columns, [])).toEqual(zero);
  });
});

describe('rowsWithEmotion (the sample routes’ emotion filter)', () => {
  it('keeps the rows of the named emotions in their order, never a row without one', () => {
    const columns = columnsOf([row('joy'), row(null), row('fear'), row('joy'), row('anger'), row(undefined)]);
    expect(Array.from(rowsWithEmotion(columns, [5, 4, 3, 2, 1, 0], ['joy', 'fear']))).toEqual([3, 2, 0]);
    expect(Array.from(rowsWithEmotion(columns, allRows(columns), ['sadness']))).toEqual([]);
    expect(Array.from(rowsWithEmotion(columns, allRows(columns), EMOTIONS))).toEqual([0, 2, 3, 4]);
  });
});

describe('withEmotions (the audience side as the routes show it)', () => {
  const recorded = { totalComments: 3, emojiCloud: null } as unknown as AnalysisResult['commentAnalysis'];

  it('reads null where a result recorded before the mix has none, and keeps one that has it', () => {
    expect(withEmotions(recorded)).toEqual({ totalComments: 3, emojiCloud: null, emotions: null });
    const mix = emotionMixOf([0, 0, 0, 1, 0, 0, 0]);
    expect(withEmotions({ ...recorded, emotions: mix }).emotions).toEqual({ ...mix, joyPercent: 100 });
    expect(withEmotions({ ...recorded, emotions: null }).emotions).toBeNull();
  });
});
