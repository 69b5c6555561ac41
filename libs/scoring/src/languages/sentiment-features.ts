import { EMOJI_VALENCE } from '../emoji';
import { afinnLexicon, type Lexicon } from './afinn-lexicons';
import { NEGATION_REACH, NEGATORS, type HeadLanguage } from './negation-cues';

// What a per-language head reads of a text: hashed words, negated words, word pairs and character
// n-grams (which catch inflections and misspellings a 1,800-tweet training set cannot list), plus a
// few dense readings that carry knowledge from outside that set: the AFINN lexicon of the language
// and the emoji valences (the same for every language). The training tool exports these very
// features, so training and reading cannot drift apart.

/** Hashed features fill indices 0 .. 2^HASH_BITS - 1; the dense ones follow. */
export const HASH_BITS = 16;
export const HASHED_FEATURES = 1 << HASH_BITS;
export const DENSE_FEATURES = [
  'lexicon_positive',
  'lexicon_negative',
  'emoji_positive',
  'emoji_negative',
  'exclamations',
  'question',
  'negated',
] as const;

export interface SparseFeatures {
  readonly indices: number[];
  readonly values: number[];
}

const LINK = /(?:https?:\/\/|www\.)\S+/g;
const HANDLE = /@\w+/g;
const REPEATS = /(\p{L})\1{2,}/gu;
/** Letter runs (apostrophes split "l'amour" and "j'adore"), emoji keys left by replaceEmoji, ! and ?. */
const TOKEN = /[\p{L}\p{M}\p{N}]+|\p{Extended_Pictographic}(?:\u200D\p{Extended_Pictographic})*|[!?]/gu;
const LETTER_START = /^[\p{L}\p{N}]/u;
/** Clause ends stop a negation's reach. */
const CLAUSE_END = /[.,;:!?]/;
const MIN_NGRAM = 2;
const MAX_NGRAM = 5;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * FNV-1a, 32 bits, over the UTF-16 code units text[start..end), continuing from h: fast, identical
 * wherever the features are made, and a feature's hash is its parts' hashes run on (no string built).
 */
function fnv(h: number, text: string, start = 0, end = text.length): number {
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}
const WORD_SEED = fnv(FNV_OFFSET, 'w:');
const NEGATED_SEED = fnv(FNV_OFFSET, 'n:');
const PAIR_SEED = fnv(FNV_OFFSET, 'b:');
const EMOJI_SEED = fnv(FNV_OFFSET, 'e:');
const GRAM_SEED = fnv(FNV_OFFSET, 'c:');

function count(counts: Map<number, number>, h: number): void {
  const index = (h >>> 0) & (HASHED_FEATURES - 1);
  counts.set(index, (counts.get(index) ?? 0) + 1);
}

/** Adds a group of counts scaled to unit length, so long and short texts weigh alike. */
function addNormalised(counts: Map<number, number>, into: Map<number, number>): void {
  let norm = 0;
  for (const c of counts.values()) norm += c * c;
  if (norm === 0) return;
  const scale = 1 / Math.sqrt(norm);
  for (const [index, c] of counts) into.set(index, (into.get(index) ?? 0) + c * scale);
}

function normalise(text: string): string {
  return text.toLowerCase().replace(LINK, ' ').replace(HANDLE, ' ').replace(REPEATS, '$1$1');
}

interface Tokens {
  readonly tokens: string[];
  /** Whether a clause break (.,;:!?) precedes each token: negation stops there. */
  readonly breakBefore: boolean[];
}

function tokenise(clean: string): Tokens {
  const tokens: string[] = [];
  const breakBefore: boolean[] = [];
  let last = 0;
  for (const m of clean.matchAll(TOKEN)) {
    breakBefore.push(CLAUSE_END.test(clean.slice(last, m.index)));
    tokens.push(m[0]);
    last = m.index + m[0].length;
  }
  return { tokens, breakBefore };
}

/** Hashed counts of words (negated or not), word pairs and emoji; character n-grams; and cue counts. */
interface TokenReadings {
  readonly words: Map<number, number>;
  readonly grams: Map<number, number>;
  emojiPositive: number;
  emojiNegative: number;
  exclamations: number;
  question: number;
  negated: number;
}

function readTokens({ tokens, breakBefore }: Tokens, negators: ReadonlySet<string>): TokenReadings {
  const r: TokenReadings = {
    words: new Map(),
    grams: new Map(),
    emojiPositive: 0,
    emojiNegative: 0,
    exclamations: 0,
    question: 0,
    negated: 0,
  };
  let negationLeft = 0;
  let previousWord = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (breakBefore[i] || token === '!' || token === '?') negationLeft = 0;
    if (token === '!') r.exclamations++;
    else if (token === '?') r.question = 1;
    else if (!LETTER_START.test(token)) readEmoji(token, r);
    else {
      count(r.words, fnv(negationLeft > 0 ? NEGATED_SEED : WORD_SEED, token));
      if (previousWord) count(r.words, fnv(fnv(fnv(PAIR_SEED, previousWord), ' '), token));
      previousWord = token;
      addCharacterGrams(token, r.grams);
      if (negationLeft > 0) negationLeft--;
      if (negators.has(token)) {
        negationLeft = NEGATION_REACH;
        r.negated = 1;
      }
    }
  }
  return r;
}

function readEmoji(token: string, r: TokenReadings): void {
  const valence = EMOJI_VALENCE.get(token);
  if (valence !== undefined && valence > 0) r.emojiPositive += valence;
  else if (valence !== undefined) r.emojiNegative -= valence;
  count(r.words, fnv(EMOJI_SEED, token));
}

function addCharacterGrams(word: string, grams: Map<number, number>): void {
  const padded = `<${word}>`;
  for (let start = 0; start < padded.length; start++) {
    let h = GRAM_SEED;
    const stop = Math.min(padded.length, start + MAX_NGRAM);
    for (let end = start; end < stop; end++) {
      h = Math.imul(h ^ padded.charCodeAt(end), FNV_PRIME);
      if (end - start + 1 >= MIN_NGRAM) count(grams, h);
    }
  }
}

/**
 * The summed positive and negative AFINN valences of the words: the longest listed phrase at each
 * word, its sign flipped after a negator unless the phrase holds the negation itself ("nicht gut").
 */
function lexiconReadings(
  words: readonly string[],
  lexicon: Lexicon,
  negators: ReadonlySet<string>,
): [number, number] {
  let positive = 0;
  let negative = 0;
  let reach = 0;
  for (let i = 0; i < words.length;) {
    const [length, valence] = longestEntry(words, i, lexicon);
    if (length === 0) {
      if (reach > 0) reach--;
      if (negators.has(words[i])) reach = NEGATION_REACH;
      i++;
      continue;
    }
    const phraseNegates = words.slice(i, i + length).some((w) => negators.has(w));
    const signed = reach > 0 && !phraseNegates ? -valence : valence;
    if (signed > 0) positive += signed;
    else negative -= signed;
    reach = 0;
    i += length;
  }
  return [positive, negative];
}

/** The longest lexicon entry starting at word i: [its length in words (0: none), its valence]. */
function longestEntry(words: readonly string[], i: number, lexicon: Lexicon): [number, number] {
  for (let n = Math.min(lexicon.longestPhrase, words.length - i); n >= 1; n--) {
    const v = lexicon.valence.get(n === 1 ? words[i] : words.slice(i, i + n).join(' '));
    if (v !== undefined) return [n, v];
  }
  return [0, 0];
}

/** The features of a text (emoji already spelled out by replaceEmoji) in a head language. */
export function sentimentFeatures(text: string, language: HeadLanguage): SparseFeatures {
  const negators = NEGATORS[language];
  const tokens = tokenise(normalise(text));
  const r = readTokens(tokens, negators);
  const letterTokens = tokens.tokens.filter((t) => LETTER_START.test(t));
  const [lexiconPositive, lexiconNegative] = lexiconReadings(letterTokens, afinnLexicon(language), negators);

  const merged = new Map<number, number>();
  addNormalised(r.words, merged);
  addNormalised(r.grams, merged);
  const dense = [
    Math.tanh(lexiconPositive / 5),
    Math.tanh(lexiconNegative / 5),
    Math.tanh(r.emojiPositive / 3),
    Math.tanh(r.emojiNegative / 3),
    Math.tanh(r.exclamations / 3),
    r.question,
    r.negated,
  ];
  const indices = [...merged.keys()].sort((a, b) => a - b);
  const values = indices.map((i) => merged.get(i)!);
  dense.forEach((v, j) => {
    if (v !== 0) {
      indices.push(HASHED_FEATURES + j);
      values.push(v);
    }
  });
  return { indices, values };
}
