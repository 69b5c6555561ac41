import { classCompound } from './class-compound';
import { LinearHead, type HeadWeights } from './linear-head';
import type { HeadLanguage } from './negation-cues';
import { sentimentFeatures } from './sentiment-features';
import { GERMAN_HEAD } from './weights/de-head';
import { SPANISH_HEAD } from './weights/es-head';
import { FRENCH_HEAD } from './weights/fr-head';
import { ITALIAN_HEAD } from './weights/it-head';
import { PORTUGUESE_HEAD } from './weights/pt-head';

const HEAD_WEIGHTS: Record<HeadLanguage, HeadWeights> = {
  es: SPANISH_HEAD,
  pt: PORTUGUESE_HEAD,
  fr: FRENCH_HEAD,
  de: GERMAN_HEAD,
  it: ITALIAN_HEAD,
};

function headReader(language: HeadLanguage): (text: string) => number {
  const head = new LinearHead(HEAD_WEIGHTS[language]);
  return (text) => classCompound(head.probabilities(sentimentFeatures(text, language)));
}

/**
 * Readers for the languages other than English that the scorer reads: ISO 639-1 code → the
 * compound (-1..1) of a text in that language whose emoji are already spelled out by replaceEmoji.
 * Each is a linear head trained on that language's tweets (tools/train-language-sentiment).
 */
export const LANGUAGE_READERS: ReadonlyMap<string, (text: string) => number> = new Map(
  (Object.keys(HEAD_WEIGHTS) as HeadLanguage[]).map((language) => [language, headReader(language)]),
);
