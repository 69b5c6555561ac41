import type { Emotion } from '@analyst/contracts';
import { replaceEmoji } from './emoji';
import { emotionOfFeatures } from './emotion-model/model';
import { extractFeatures, newFeatures } from './sentiment-model/features';
import { vaderReading } from './vader';

const features = newFeatures();

/**
 * The emotion an English comment reads as (GoEmotions' Ekman grouping: anger, disgust, fear, joy, sadness,
 * surprise or neutral), from the emotion head trained beside the sentiment model on the same features
 * (README "emotion"); null for an empty body or one with no words. Pure, synchronous.
 */
export function emotionOf(text: string): Emotion | null {
  const spelled = replaceEmoji(text);
  const { compound, signal } = vaderReading(spelled);
  extractFeatures(spelled, compound, signal, features);
  return features.words === 0 ? null : emotionOfFeatures(features);
}
