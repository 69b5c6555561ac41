import type { Emotion } from '@analyst/contracts';
import { replaceEmoji } from './emoji';
import { emotionOfFeatures } from './emotion-model/model';
import { englishFeatures } from './english-features';

/**
 * The emotion an English comment reads as (GoEmotions' Ekman grouping: anger, disgust, fear, joy, sadness,
 * surprise or neutral), from the emotion head trained beside the sentiment model on the same features
 * (README "emotion"); null for an empty body or one with no words. Pure, synchronous.
 */
export function emotionOf(text: string): Emotion | null {
  // The features sentimentOf / scorePost have just read for the same text are reused (english-features.ts).
  const { features } = englishFeatures(replaceEmoji(text));
  return features.words === 0 ? null : emotionOfFeatures(features);
}
