import { extractFeatures, newFeatures, type Features } from './sentiment-model/features';
import { vaderReading } from './vader';

/** An English text's VADER reading and model features; valid until the next call to englishFeatures. */
export interface EnglishFeatures {
  compound: number;
  signal: boolean;
  /** Whether VADER read a word by the slang table (slang.ts). */
  slang: boolean;
  features: Features;
}

const last: EnglishFeatures = { compound: 0, signal: false, slang: false, features: newFeatures() };
let lastText: string | null = null;

/** Emoji-led texts and texts with slang read VADER's compound alone (englishCompound says why). */
export function readsVaderAlone(features: Features, slang: boolean): boolean {
  return slang || (features.emojiWords > 0 && 2 * features.emojiWords >= features.words);
}

/**
 * VADER's reading and the model features (sentiment-model/features.ts) of an English text whose emoji
 * are spelled out. The sentiment model and the emotion head read the same features: the last text's are
 * kept, so a comment whose emotion is asked right after its sentiment is read once (VADER is most of the
 * cost). Only the one last text is kept, so repeated bodies elsewhere in a corpus are read again.
 */
export function englishFeatures(spelled: string): EnglishFeatures {
  if (spelled === lastText) return last;
  const { compound, signal, slang } = vaderReading(spelled);
  extractFeatures(spelled, compound, signal, last.features);
  last.compound = compound;
  last.signal = signal;
  last.slang = slang;
  lastText = spelled;
  return last;
}
