import { EMOJI_VALENCE } from './emoji';
import { slangValences } from './slang';
import { vader, vaderLexicon } from './third-party';

// VADER as the Python reference (vaderSentiment 3.3.2) computes it, rule for rule. The npm port the
// product used before departs from it (case-sensitive negation and "but", no "no" rule, a tokenizer
// that leaves "good..." unread, three lexicon entries missing); the tests pin each fix to the
// reference's value. Emoji and slang are read on top of this (see emoji.ts, slang.ts).

const B_INCR = 0.293;
const B_DECR = -0.293;
const C_INCR = 0.733;
const N_SCALAR = -0.74;

const NEGATE = new Set([
  'aint',
  'arent',
  'cannot',
  'cant',
  'couldnt',
  'darent',
  'didnt',
  'doesnt',
  "ain't",
  "aren't",
  "can't",
  "couldn't",
  "daren't",
  "didn't",
  "doesn't",
  'dont',
  'hadnt',
  'hasnt',
  'havent',
  'isnt',
  'mightnt',
  'mustnt',
  'neither',
  "don't",
  "hadn't",
  "hasn't",
  "haven't",
  "isn't",
  "mightn't",
  "mustn't",
  'neednt',
  "needn't",
  'never',
  'none',
  'nope',
  'nor',
  'not',
  'nothing',
  'nowhere',
  'oughtnt',
  'shant',
  'shouldnt',
  'uhuh',
  'wasnt',
  'werent',
  "oughtn't",
  "shan't",
  "shouldn't",
  'uh-uh',
  "wasn't",
  "weren't",
  'without',
  'wont',
  'wouldnt',
  "won't",
  "wouldn't",
  'rarely',
  'seldom',
  'despite',
]);

const BOOSTER = new Map<string, number>();
for (const w of (
  'absolutely amazingly awfully completely considerable considerably decidedly deeply effing enormous enormously entirely especially ' +
  'exceptional exceptionally extreme extremely fabulously flipping flippin frackin fracking fricking frickin frigging friggin fully fuckin ' +
  'fucking fuggin fugging greatly hella highly hugely incredible incredibly intensely major majorly more most particularly purely quite ' +
  'really remarkably so substantially thoroughly total totally tremendous tremendously uber unbelievably unusually utter utterly very'
).split(' '))
  BOOSTER.set(w, B_INCR);
for (const w of [
  'almost',
  'barely',
  'hardly',
  'just enough',
  'kind of',
  'kinda',
  'kindof',
  'kind-of',
  'less',
  'little',
  'marginal',
  'marginally',
  'occasional',
  'occasionally',
  'partly',
  'scarce',
  'scarcely',
  'slight',
  'slightly',
  'somewhat',
  'sort of',
  'sorta',
  'sortof',
  'sort-of',
])
  BOOSTER.set(w, B_DECR);
// Social-media degree words (reviewed, not in the reference): "highkey" boosts, "lowkey" hedges like "somewhat".
BOOSTER.set('highkey', B_INCR);
BOOSTER.set('lowkey', B_DECR);

const SPECIAL_CASES = new Map<string, number>([
  ['the shit', 3],
  ['the bomb', 3],
  ['bad ass', 1.5],
  ['badass', 1.5],
  ['bus stop', 0],
  ['yeah right', -2],
  ['kiss of death', -1.5],
  ['to die for', 3],
  ['beating heart', 3.5],
]);

/** The reference lexicon: the port's copy plus the reference entries it lacks or holds differently. */
export const LEXICON = new Map<string, number>(vaderLexicon);
// vader_lexicon.txt of vaderSentiment 3.3.2 has these; the port's copy does not ("badass" is -0.6 there).
for (const [w, v] of [
  ['heart', 3.2],
  ['hearts', 3.3],
  ['flawed', -2.1],
  ['badass', 1.4],
] as const)
  LEXICON.set(w, v);
// Emoji arrive as words of their own (replaceEmoji); their valences sit in the same lexicon.
for (const [e, v] of EMOJI_VALENCE) LEXICON.set(e, v);

const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n;
}

/** The reference's _strip_punc_if_word: strip ASCII punctuation at both ends unless ≤ 2 characters remain (emoticons). */
function stripToken(token: string): string {
  let i = 0;
  let j = token.length;
  while (i < j && PUNCTUATION.has(token[i])) i++;
  while (j > i && PUNCTUATION.has(token[j - 1])) j--;
  if (i === 0 && j === token.length) return token;
  const stripped = token.slice(i, j);
  return codePoints(stripped) <= 2 ? token : stripped;
}

/** Python's str.isupper(): at least one cased character and no lowercase one. */
function isUpper(w: string): boolean {
  return w === w.toUpperCase() && w !== w.toLowerCase();
}

/** The reference's words_and_emoticons: whitespace split, punctuation stripped from words. */
export function vaderWords(text: string): string[] {
  const out: string[] = [];
  for (const token of text.split(/\s+/)) if (token.length > 0) out.push(stripToken(token));
  return out;
}

function negated(lower: string): boolean {
  return NEGATE.has(lower) || lower.includes("n't");
}

function scalarIncDec(word: string, lower: string, valence: number, isCapDiff: boolean): number {
  const b = BOOSTER.get(lower);
  if (b === undefined) return 0;
  let scalar = valence < 0 ? -b : b;
  if (isCapDiff && isUpper(word)) scalar += valence > 0 ? C_INCR : -C_INCR;
  return scalar;
}

function negationCheck(valence: number, lower: string[], startI: number, i: number): number {
  if (startI === 0) return negated(lower[i - 1]) ? valence * N_SCALAR : valence;
  if (startI === 1) {
    if (lower[i - 2] === 'never' && (lower[i - 1] === 'so' || lower[i - 1] === 'this')) return valence * 1.25;
    if (lower[i - 2] === 'without' && lower[i - 1] === 'doubt') return valence;
    return negated(lower[i - 2]) ? valence * N_SCALAR : valence;
  }
  // The reference's precedence: (never and (so or this)) or (i-1 is so or this).
  if (
    (lower[i - 3] === 'never' && (lower[i - 2] === 'so' || lower[i - 2] === 'this')) ||
    lower[i - 1] === 'so' ||
    lower[i - 1] === 'this'
  )
    return valence * 1.25;
  if (lower[i - 3] === 'without' && (lower[i - 2] === 'doubt' || lower[i - 1] === 'doubt')) return valence;
  return negated(lower[i - 3]) ? valence * N_SCALAR : valence;
}

function specialIdioms(valence: number, lower: string[], i: number): number {
  const oneZero = `${lower[i - 1]} ${lower[i]}`;
  const twoOneZero = `${lower[i - 2]} ${lower[i - 1]} ${lower[i]}`;
  const twoOne = `${lower[i - 2]} ${lower[i - 1]}`;
  const threeTwoOne = `${lower[i - 3]} ${lower[i - 2]} ${lower[i - 1]}`;
  const threeTwo = `${lower[i - 3]} ${lower[i - 2]}`;
  for (const seq of [oneZero, twoOneZero, twoOne, threeTwoOne, threeTwo]) {
    const v = SPECIAL_CASES.get(seq);
    if (v !== undefined) {
      valence = v;
      break;
    }
  }
  if (lower.length - 1 > i) {
    const v = SPECIAL_CASES.get(`${lower[i]} ${lower[i + 1]}`);
    if (v !== undefined) valence = v;
  }
  if (lower.length - 1 > i + 1) {
    const v = SPECIAL_CASES.get(`${lower[i]} ${lower[i + 1]} ${lower[i + 2]}`);
    if (v !== undefined) valence = v;
  }
  for (const gram of [threeTwoOne, threeTwo, twoOne]) {
    const b = BOOSTER.get(gram);
    if (b !== undefined) valence += b;
  }
  return valence;
}

function leastCheck(valence: number, lower: string[], known: (number | undefined)[], i: number): number {
  if (i > 1 && known[i - 1] === undefined && lower[i - 1] === 'least') {
    if (lower[i - 2] !== 'at' && lower[i - 2] !== 'very') return valence * N_SCALAR;
  } else if (i > 0 && known[i - 1] === undefined && lower[i - 1] === 'least') return valence * N_SCALAR;
  return valence;
}

/** The reference's _but_check, including its list.index() lookup (a repeated value is found at its first place). */
function butCheck(lower: string[], sentiments: number[]): void {
  const bi = lower.indexOf('but');
  if (bi < 0) return;
  for (let k = 0; k < sentiments.length; k++) {
    const s = sentiments[k];
    const si = sentiments.indexOf(s);
    if (si < bi) sentiments[si] = s * 0.5;
    else if (si > bi) sentiments[si] = s * 1.5;
  }
}

function punctuationEmphasis(text: string): number {
  let ep = 0;
  let qm = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 33) ep++;
    else if (c === 63) qm++;
  }
  return Math.min(ep, 4) * 0.292 + (qm > 1 ? (qm <= 3 ? qm * 0.18 : 0.96) : 0);
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/**
 * Sum of rule-adjusted valences of a text's words (0 when no word carries sentiment), whether any did, and
 * whether any word was read by the slang table (slang.ts) rather than the lexicon alone.
 */
function valenceSum(text: string): { sum: number; signal: boolean; slang: boolean } {
  const words = vaderWords(text);
  const n = words.length;
  if (n === 0) return { sum: 0, signal: false, slang: false };
  const lower = words.map((w) => w.toLowerCase());
  // Per-word valences before the rules: the lexicon, with the slang table's readings in context.
  const known = lower.map((w) => LEXICON.get(w));
  const slang = slangValences(words, lower, known);
  let caps = 0;
  for (const w of words) if (isUpper(w)) caps++;
  const isCapDiff = n - caps > 0 && n - caps < n;
  const sentiments: number[] = new Array(n);
  let signal = false;
  for (let i = 0; i < n; i++) {
    const valence = wordValence(words, lower, known, i, isCapDiff);
    if (valence !== 0) signal = true;
    sentiments[i] = valence;
  }
  butCheck(lower, sentiments);
  let sum = 0;
  for (const s of sentiments) sum += s;
  return { sum, signal, slang };
}

/** Whether the word is a booster ("very", "kind of"): it scales its neighbour and carries nothing itself. */
function isBoosterAt(lower: readonly string[], i: number): boolean {
  return BOOSTER.has(lower[i]) || (i < lower.length - 1 && lower[i] === 'kind' && lower[i + 1] === 'of');
}

/** Whether "no" comes one or two words before, or three words before with "or"/"nor" between. */
function negatedByNo(lower: readonly string[], i: number): boolean {
  return (
    (i > 0 && lower[i - 1] === 'no') ||
    (i > 1 && lower[i - 2] === 'no') ||
    (i > 2 && lower[i - 3] === 'no' && (lower[i - 1] === 'or' || lower[i - 1] === 'nor'))
  );
}

/** One word's rule-adjusted valence (VADER's `sentiment_valence`): 0 for a booster or a word without one. */
function wordValence(
  words: readonly string[],
  lower: string[],
  known: (number | undefined)[],
  i: number,
  isCapDiff: boolean,
): number {
  const n = words.length;
  const base = known[i];
  if (isBoosterAt(lower, i) || base === undefined) return 0;
  let valence = base;
  // "no" before a lexicon word negates that word instead of counting as a word of its own.
  if (lower[i] === 'no' && i !== n - 1 && known[i + 1] !== undefined) valence = 0;
  if (negatedByNo(lower, i)) valence = base * N_SCALAR;
  if (isCapDiff && isUpper(words[i])) valence += valence > 0 ? C_INCR : -C_INCR;
  for (let startI = 0; startI < 3; startI++) {
    const j = i - (startI + 1);
    if (j >= 0 && known[j] === undefined) {
      let s = scalarIncDec(words[j], lower[j], valence, isCapDiff);
      if (startI === 1 && s !== 0) s *= 0.95;
      if (startI === 2 && s !== 0) s *= 0.9;
      valence += s;
      valence = negationCheck(valence, lower, startI, i);
      if (startI === 2) valence = specialIdioms(valence, lower, i);
    }
  }
  return leastCheck(valence, lower, known, i);
}

/**
 * VADER compound (-1..1) of a text, rounded to 4 decimals like the reference: sum of valences plus
 * punctuation emphasis, normalised by x / sqrt(x² + 15). Emoji must already be replaced (see emoji.ts).
 */
export function vaderCompound(text: string): number {
  const { sum } = valenceSum(text);
  return compoundOfSum(sum, text);
}

function compoundOfSum(sum: number, text: string): number {
  if (sum === 0) return 0;
  const amp = punctuationEmphasis(text);
  const s = sum > 0 ? sum + amp : sum - amp;
  const c = s / Math.sqrt(s * s + 15);
  return round4(c < -1 ? -1 : c > 1 ? 1 : c);
}

/**
 * The compound, whether any word carried sentiment (a text with none is unscored-neutral, not a reading) and
 * whether any word was read as slang.
 */
export function vaderReading(text: string): { compound: number; signal: boolean; slang: boolean } {
  const { sum, signal, slang } = valenceSum(text);
  return { compound: compoundOfSum(sum, text), signal, slang };
}

/** The npm port's own entry point (vader-sentiment 1.1.3), for the quality bench and for tests showing what changed. */
export function portCompound(text: string): number {
  return vader.polarity_scores(text).compound;
}

/**
 * Where compounds land on the 1..10 scale: piecewise linear through these knots. The bucket edges
 * of the contract (negative < 3, neutral 4.5-5.5, positive ≥ 7.5) sit on VADER's own ±0.5 for the
 * strong buckets, and on a neutral band calibrated on data: compound -0.075 .. 0.35 is the band that
 * gives the best 3-class macro recall (61.3, against 59.8 for the former -0.125 .. 0.1) on the
 * validation split of TweetEval's sentiment task (2,000 tweets labelled negative / neutral /
 * positive; its test split was never used). Mildly positive wording ("ok", "not bad") is what people
 * label neutral. No sentiment at all (compound 0) reads 5, the middle.
 */
const KNOTS: readonly [number, number][] = [
  [-1, 1],
  [-0.5, 3],
  [-0.075, 4.5],
  [0, 5],
  [0.35, 5.5],
  [0.5, 7.5],
  [1, 10],
];

/** Compound -1..1 onto the 1..10 scale (see KNOTS): -1 → 1, 0 → 5, 1 → 10. */
export function compoundToScore(compound: number): number {
  const c = compound < -1 ? -1 : compound > 1 ? 1 : compound;
  for (let k = 1; k < KNOTS.length; k++) {
    const [c1, s1] = KNOTS[k];
    if (c <= c1) {
      const [c0, s0] = KNOTS[k - 1];
      return s0 + ((s1 - s0) * (c - c0)) / (c1 - c0);
    }
  }
  return 10;
}

/** The inverse of compoundToScore: a 1..10 reading back on the compound scale. */
export function scoreToCompound(score: number): number {
  const s = score < 1 ? 1 : score > 10 ? 10 : score;
  for (let k = 1; k < KNOTS.length; k++) {
    const [c1, s1] = KNOTS[k];
    if (s <= s1) {
      const [c0, s0] = KNOTS[k - 1];
      return c0 + ((c1 - c0) * (s - s0)) / (s1 - s0);
    }
  }
  return 1;
}
