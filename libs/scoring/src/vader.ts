import { vader } from './third-party';

// The port's SentiText builds a dictionary of every word with every punctuation mark glued on, for
// every call (17 × words string concatenations): ~95% of its time. This tokenizer yields the same
// words_and_emoticons (checked against the port by a property test) and the port's own rules do the rest.
const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/;
const PUNC_LIST = new Set(['.', '!', '?', ',', ';', ':', '-', "'", '"', '!!', '!!!', '??', '???', '?!?', '!?!', '?!?!', '!?!?']);
const WHITESPACE = /\s/;
const PYTHON_ISUPPER = /^[^a-z]*[A-Z]+[^a-z]*$/;

function isPunctuation(ch: string): boolean {
  return PUNCTUATION.test(ch);
}

/** A token with one leading or trailing mark of PUNC_LIST around a punctuation-free word loses the mark. */
function stripToken(token: string): string {
  let i = 0;
  while (i < token.length && isPunctuation(token[i])) i++;
  let j = token.length;
  while (j > i && isPunctuation(token[j - 1])) j--;
  if (i > 0 && j === token.length) {
    const word = token.slice(i);
    if (word.length > 1 && PUNC_LIST.has(token.slice(0, i)) && !hasPunctuation(word)) return word;
  } else if (i === 0 && j < token.length) {
    const word = token.slice(0, j);
    if (word.length > 1 && PUNC_LIST.has(token.slice(j)) && !hasPunctuation(word)) return word;
  }
  return token;
}

function hasPunctuation(word: string): boolean {
  for (let k = 0; k < word.length; k++) if (isPunctuation(word[k])) return true;
  return false;
}

export function vaderWords(text: string): string[] {
  const words: string[] = [];
  for (const token of text.split(WHITESPACE)) if (token.length > 1) words.push(stripToken(token));
  return words;
}

/** VADER compound (-1..1) of a text, computed by the vader-sentiment port's rules on a fast tokenization. */
export function vaderCompound(text: string): number {
  const words = vaderWords(text);
  if (words.length === 0) return 0;
  let caps = 0;
  for (const w of words) if (PYTHON_ISUPPER.test(w)) caps++;
  const differential = words.length - caps;
  const sentiText = { words_and_emoticons: words, is_cap_diff: differential > 0 && differential < words.length };
  let sentiments: number[] = [];
  for (let i = 0; i < words.length; i++) {
    // The port skips booster words and "kind of"; no booster is in the lexicon, so only "kind of" needs it here.
    if (i < words.length - 1 && words[i].toLowerCase() === 'kind' && words[i + 1].toLowerCase() === 'of') {
      sentiments.push(0);
      continue;
    }
    sentiments = vader.sentiment_valence(0, sentiText, words[i], i, sentiments);
  }
  sentiments = vader.but_check(words, sentiments);
  return vader.score_valence(sentiments, text).compound;
}

/** The port's own entry point, for tests that compare the fast path with it. */
export function vaderReferenceCompound(text: string): number {
  return vader.polarity_scores(text).compound;
}

/**
 * Compound -1..1 onto the 1..10 scale, linear on each side of 0: -1 → 1, 0 → 5, 1 → 10. A comment
 * with no sentiment (compound 0) lands in the middle of the 4.5-5.5 neutral band rather than on its
 * upper edge; the band then holds compounds from -0.125 to just under 0.1, close to VADER's own
 * ±0.05 neutral threshold.
 */
export function compoundToScore(compound: number): number {
  return compound >= 0 ? 5 + 5 * compound : 5 + 4 * compound;
}
