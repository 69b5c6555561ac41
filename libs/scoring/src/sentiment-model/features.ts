// The sentiment model's input: hashed word unigrams and bigrams (negated words marked; a negator itself only
// in bigrams), hashed character 3-5-grams of each word, and a few dense signals the scorer already reads
// (VADER's compound split by sign, whether any word carried sentiment, ! and ?). The training script dumps these same features through
// this file (tools/train-sentiment/dump-features.ts), so training and inference cannot drift apart.

/** log2 of the number of hash buckets. */
export const HASH_BITS = 18;
export const BUCKETS = 1 << HASH_BITS;
/** compound ≥ 0, compound < 0, any sentiment word, a question mark, an exclamation mark. */
export const DENSE_FEATURES = 5;

/** Characters kept of one word: longer words (URLs, keyboard mashes) are cut. */
const MAX_WORD = 40;
/** Words a negation reaches: "not really that good" marks really, that, good. */
const NEGATION_SCOPE = 3;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const CHAR_SEED = 0x5bd1e995;
const NEGATED_SALT = 0x27d4eb2f;
const BIGRAM_SALT = 0x165667b1;

/** A reusable feature buffer: the bucket of each hashed feature (repeats count) and the dense values. */
export interface Features {
  buckets: Int32Array;
  count: number;
  dense: Float64Array;
  /** Words read, and how many of them are emoji (emoji-led comments are read by the emoji table). */
  words: number;
  emojiWords: number;
}

export function newFeatures(): Features {
  return {
    buckets: new Int32Array(512),
    count: 0,
    dense: new Float64Array(DENSE_FEATURES),
    words: 0,
    emojiWords: 0,
  };
}

/** Spreads a 32-bit hash (murmur3's finaliser) and keeps its top HASH_BITS bits. */
function bucketOf(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> (32 - HASH_BITS);
}

function push(f: Features, h: number): void {
  if (f.count === f.buckets.length) {
    const grown = new Int32Array(f.buckets.length * 2);
    grown.set(f.buckets);
    f.buckets = grown;
  }
  f.buckets[f.count++] = bucketOf(h);
}

function fnv(h: number, c: number): number {
  return Math.imul(h ^ c, FNV_PRIME);
}

/** Letters, digits, apostrophes, @ and #, and anything beyond ASCII (accented letters, emoji). */
function isWordChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 48 && c <= 57) ||
    c === 39 ||
    c === 35 ||
    c === 64 ||
    c === 0x2019 ||
    c >= 0xc0
  );
}

/** A word starting with a pictograph: symbols and dingbats (❤ ✨ ⭐) or an astral emoji's first half. */
function isEmojiStart(c: number): boolean {
  return (c >= 0x2190 && c <= 0x2bff) || (c >= 0xd83c && c <= 0xd83e);
}

/** Punctuation that ends a negation's reach. */
function endsClause(c: number): boolean {
  return c === 46 || c === 44 || c === 33 || c === 63 || c === 59 || c === 58;
}

const word = new Uint16Array(MAX_WORD);

function hashWord(length: number): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < length; i++) h = fnv(h, word[i]);
  return h;
}

function hashOf(text: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) h = fnv(h, text.charCodeAt(i));
  return h;
}

const NEGATORS = new Set(
  [
    'not',
    'no',
    'never',
    'nothing',
    'nobody',
    'none',
    'neither',
    'nor',
    'nowhere',
    'without',
    'cannot',
    'cant',
    'dont',
    'doesnt',
    'didnt',
    'isnt',
    'arent',
    'wasnt',
    'werent',
    'wont',
    'wouldnt',
    'shouldnt',
    'couldnt',
    'havent',
    'hasnt',
    'hadnt',
    'aint',
    'nope',
  ].map(hashOf),
);

/** Whether the word in `word` negates: a negator or any word ending in n't. */
function isNegator(length: number, h: number): boolean {
  if (NEGATORS.has(h)) return true;
  return length > 3 && word[length - 1] === 116 && word[length - 2] === 39 && word[length - 3] === 110;
}

/**
 * Character 3-5-grams of " word ", seeded apart from the word hashes; a negated word's grams are seeded
 * apart again, so "bad" in "not bad" does not read through the grams of a plain "bad".
 */
function pushCharGrams(f: Features, length: number, negated: boolean): void {
  const padded = length + 2;
  const seed = negated ? CHAR_SEED ^ NEGATED_SALT : CHAR_SEED;
  for (let start = 0; start + 3 <= padded; start++) {
    let h = seed;
    for (let k = 0; k < 5 && start + k < padded; k++) {
      const p = start + k;
      h = fnv(h, p === 0 || p === padded - 1 ? 32 : word[p - 1]);
      if (k >= 2) push(f, h);
    }
  }
}

/** Where the word starting at `i` ends; its characters go to `word`, runs of one letter cut to two. */
let wordLength = 0;
function readWord(lower: string, i: number): number {
  const n = lower.length;
  let length = 0;
  for (; i < n && isWordChar(lower.charCodeAt(i)); i++) {
    const c = lower.charCodeAt(i) === 0x2019 ? 39 : lower.charCodeAt(i);
    const repeated = length >= 2 && word[length - 1] === c && word[length - 2] === c;
    if (!repeated && length < MAX_WORD) word[length++] = c;
  }
  wordLength = normalise(length);
  return i;
}

function resetDense(dense: Float64Array, compound: number, signal: boolean): void {
  dense[0] = compound > 0 ? compound : 0;
  dense[1] = compound < 0 ? compound : 0;
  dense[2] = signal ? 1 : 0;
  dense[3] = 0;
  dense[4] = 0;
}

/**
 * Fills `f` with the features of `text` (emoji already spelled out by replaceEmoji) given its VADER
 * compound and whether any word carried sentiment. Lower-cased; runs of one letter are cut to two
 * ("soooo" reads as "soo"); links read as "http", @handles as "@", numbers as "0".
 */
export function extractFeatures(text: string, compound: number, signal: boolean, f: Features): void {
  f.count = 0;
  f.words = 0;
  f.emojiWords = 0;
  resetDense(f.dense, compound, signal);
  const lower = text.toLowerCase();
  let previous = 0;
  let hasPrevious = false;
  let negatedLeft = 0;
  let i = 0;
  while (i < lower.length) {
    const c = lower.charCodeAt(i);
    if (!isWordChar(c)) {
      if (c === 63) f.dense[3] = 1;
      if (c === 33) f.dense[4] = 1;
      if (endsClause(c)) {
        negatedLeft = 0;
        hasPrevious = false;
      }
      i++;
      continue;
    }
    f.words++;
    if (isEmojiStart(c)) f.emojiWords++;
    i = readWord(lower, i);
    const h = hashWord(wordLength);
    const negated = negatedLeft > 0;
    const unigram = negated ? h ^ NEGATED_SALT : h;
    const negator = isNegator(wordLength, h);
    // A negator is read through the words it negates and its bigrams, not as a word of its own: tweets
    // mostly negate praise, so a plain "not" learnt to read negative and outvoted "not bad".
    if (!negator) push(f, unigram);
    if (hasPrevious) push(f, Math.imul(previous ^ BIGRAM_SALT, FNV_PRIME) ^ unigram);
    if (!negator) pushCharGrams(f, wordLength, negated);
    previous = unigram;
    hasPrevious = true;
    if (negator) negatedLeft = NEGATION_SCOPE;
    else if (negated) negatedLeft--;
  }
}

/** Links, handles and numbers each read as one word; returns the kept length of `word`. */
function normalise(length: number): number {
  if (length >= 4 && word[0] === 104 && word[1] === 116 && word[2] === 116 && word[3] === 112) return 4;
  if (word[0] === 64 && length > 1) return 1;
  let digits = true;
  for (let k = 0; k < length && digits; k++) digits = word[k] >= 48 && word[k] <= 57;
  if (digits) {
    word[0] = 48;
    return 1;
  }
  return length;
}
