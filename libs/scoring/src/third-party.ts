/* eslint-disable @typescript-eslint/no-require-imports -- these packages ship no type declarations; typed here once. */

/** The statics of the vader-sentiment port (vaderSentiment-js 1.1.3) that the scorer calls. */
export interface VaderAnalyzer {
  polarity_scores(text: string): { neg: number; neu: number; pos: number; compound: number };
  sentiment_valence(
    valence: number,
    sentiText: { words_and_emoticons: string[]; is_cap_diff: boolean },
    item: string,
    index: number,
    sentiments: number[],
  ): number[];
  but_check(wordsAndEmoticons: string[], sentiments: number[]): number[];
  score_valence(
    sentiments: number[],
    text: string,
  ): { neg: number; neu: number; pos: number; compound: number };
}

export interface EmojiEntry {
  name: string;
  slug: string;
  group: string;
  skin_tone_support: boolean;
}

export const vader: VaderAnalyzer = (
  require('vader-sentiment') as { SentimentIntensityAnalyzer: VaderAnalyzer }
).SentimentIntensityAnalyzer;
/** The port's copy of vader_lexicon.txt (word, tab, mean valence -4..4, …), read once. */
function readVaderLexicon(): Map<string, number> {
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  const { dirname, join } = require('node:path') as typeof import('node:path');
  const file = join(dirname(require.resolve('vader-sentiment/package.json')), 'vader_lexicon.txt');
  const lexicon = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [word, valence] = line.trim().split('\t');
    if (word && valence !== undefined) lexicon.set(word, Number(valence));
  }
  return lexicon;
}
export const vaderLexicon: Map<string, number> = readVaderLexicon();
export const emojiData: Record<string, EmojiEntry> = require('unicode-emoji-json') as Record<
  string,
  EmojiEntry
>;
export const porter2: (word: string) => string = require('wink-porter2-stemmer') as (word: string) => string;
