/**
 * The emotions a comment is read as: GoEmotions' Ekman grouping (six basic emotions and neutral).
 * An extension of the spec: `include: ["emotions"]` on an analysis, `emotion` on sample rows.
 */
export const EMOTIONS = ['anger', 'disgust', 'fear', 'joy', 'sadness', 'surprise', 'neutral'] as const;
export type Emotion = (typeof EMOTIONS)[number];

export const isEmotion = (value: unknown): value is Emotion =>
  typeof value === 'string' && (EMOTIONS as readonly string[]).includes(value);
