// Social-media vocabulary the reference lexicon lacks or reads in another sense ("fire" -1.4, "sick" -2.3,
// "killed" -3.5). Reviewed values on VADER's -4..4 scale (Analyst, 2025), anchored on lexicon words of
// similar strength: "good" 1.9, "great" 3.1, "awesome" 3.1, "bad" -2.5, "lame" -1.8. Words with an
// ordinary sense ("fire", "sick", "mid", "ratio") take the slang reading only in the contexts listed.

/** Always slang: a valence whatever the context. */
export const SLANG: ReadonlyMap<string, number> = new Map([
  ['goated', 2.8],
  ['bussin', 2.5],
  ['banger', 2.6],
  ['bangers', 2.6],
  ['cringey', -1.8],
  ['cringy', -1.8],
  ['yikes', -1.2],
  ['overrated', -1.3],
  ['underrated', 1.3],
  ['ratioed', -1.6],
  ["ratio'd", -1.6],
]);

/** Words that make the next word a predicate or an evaluation: "is fire", "so sick", "kinda mid". */
const PREDICATE = new Set([
  'is',
  'was',
  "it's",
  'its',
  "that's",
  'thats',
  'be',
  'so',
  'too',
  'pure',
  'straight',
  'absolute',
  'absolutely',
  'literally',
  'lowkey',
  'highkey',
  'kinda',
  'still',
  'just',
  'looks',
  'look',
  'sounds',
  'looking',
  'lookin',
  'pretty',
  'super',
  'hella',
  'mad',
  'real',
  'actually',
  'honestly',
  'ngl',
  'tbh',
  'how',
  'this',
  'that',
  'also',
  'damn',
  'very',
  'really',
  'lowk',
  'lwk',
  'fr',
]);
/** Nouns a slang adjective praises: "sick edit", "fire beat". */
const PRAISED = new Set([
  'beat',
  'beats',
  'edit',
  'edits',
  'video',
  'vid',
  'track',
  'song',
  'clip',
  'trick',
  'shot',
  'play',
  'goal',
  'drop',
  'fit',
  'build',
  'combo',
  'setup',
  'moves',
  'riff',
  'transition',
  'content',
  'verse',
  'remix',
  'album',
  'design',
  'animation',
  'save',
  'move',
  'flow',
]);
/** Verbs that read as praise before "it": "killed it", "nailed it". */
// Not "ate": "I ate it all" is a meal far more often than praise.
const PRAISE_IT = new Set([
  'killed',
  'killing',
  'nailed',
  'nailing',
  'crushed',
  'crushing',
  'smashed',
  'smashing',
  'slayed',
  'slaying',
]);
/** After "sick", a subject means illness: "how sick I get", "so sick we stayed home". */
const SUBJECTS = new Set(['i', 'we', 'you', 'he', 'she', 'they', 'everyone']);

const TRAILING_PUNCTUATION = /[!?.,:;)]+$/;

/**
 * Sets the slang reading of each word in `known` (lexicon valences, undefined where none) and rewrites
 * "no cap" ("no lie") as a booster so its "no" negates nothing. `words` keep their case: "W" and "L" are
 * slang only in capitals (the lexicon has "l" 2.0, which lowercase keeps). Returns whether any word got a
 * slang valence (the English model then defers to these readings, english-sentiment.ts).
 */
export function slangValences(words: string[], lower: string[], known: (number | undefined)[]): boolean {
  let read = false;
  for (let i = 0; i < words.length; i++) {
    if (inTitle(words, i)) continue;
    const fixed = SLANG.get(lower[i]);
    if (fixed !== undefined) {
      known[i] = fixed;
      read = true;
      continue;
    }
    const c = contextAt(words, lower, i);
    const reading = READINGS.get(lower[i]);
    if (reading) {
      if (reading.when(c)) {
        known[i] = reading.valence;
        read = true;
      }
    } else if (lower[i] === 'cap') {
      if (noCap(c, known)) read = true;
    } else if (lower[i] === 'it') {
      if (PRAISE_IT.has(c.prev)) {
        known[i - 1] = 2.6;
        read = true;
      }
    } else {
      const letter = winOrLoss(words, i);
      if (letter !== undefined) {
        known[i] = letter;
        read = true;
      }
    }
  }
  return read;
}

/** Part of a title or a name ("The Banger Sisters", "Fire Island"): not slang. */
function inTitle(words: readonly string[], i: number): boolean {
  return (
    i > 0 &&
    CAPITALISED.test(words[i]) &&
    !isUpperWord(words[i]) &&
    (CAPITALISED.test(words[i - 1]) || (i < words.length - 1 && CAPITALISED.test(words[i + 1])))
  );
}

/** A word with its neighbours, as the slang readings decide on them. */
interface SlangContext {
  lower: string[];
  i: number;
  prev: string;
  next: string;
  /** Three words or fewer: a short comment is a judgement ("fire", "so mid"). */
  short: boolean;
  /** After a predicate word ("is", "so", "its" at the start), before a praised word, or short. */
  predicate: boolean;
}

function contextAt(words: readonly string[], lower: string[], i: number): SlangContext {
  const n = words.length;
  const prev = i > 0 ? lower[i - 1] : '';
  const next = i < n - 1 ? lower[i + 1] : '';
  const short = n <= 3;
  // "its" stands for "it's" only at the start ("its fire"); after a verb it is the possessive ("loses its fire").
  const predicateWord = PREDICATE.has(prev) && !(prev === 'its' && i >= 2);
  return { lower, i, prev, next, short, predicate: predicateWord || PRAISED.has(next) || short };
}

/** "this is sick", "so sick", "sick edit"; "I'm sick", "sick of it", "how sick I get" keep the lexicon's -2.3. */
function sickIsPraise(c: SlangContext): boolean {
  if (c.next === 'of' || SUBJECTS.has(c.next) || c.prev === "i'm" || c.prev === 'im') return false;
  const before = c.lower[c.i - 2];
  return c.predicate || (c.prev === 'is' && (c.i < 2 || before === 'this' || before === 'that'));
}

/** Slang words read with a valence when their context says they judge. */
const READINGS = new Map<string, { valence: number; when: (c: SlangContext) => boolean }>([
  ...['fire', 'lit', 'fye'].map(
    (w) => [w, { valence: 2.2, when: (c: SlangContext) => c.predicate }] as const,
  ),
  [
    'cringe',
    {
      valence: -1.8,
      // "so cringe", "cringe video", "made me cringe" judge; "they probably cringe when …" reports someone else's wince.
      when: (c) => c.predicate || ['me', 'i', 'us', 'the'].includes(c.prev) || c.i === 0,
    },
  ],
  // "that's dope", "dope beat"; "inside dope" (information) and "to dope out" stay unread.
  ['dope', { valence: 1.9, when: (c) => c.predicate }],
  [
    'trash',
    {
      valence: -2.0,
      // "this is trash", "absolute trash", "trash take"; "the trash can", "in the trash" are the bin.
      when: (c) => c.predicate && !(c.next !== '' && !PRAISED.has(c.next) && c.prev === 'the'),
    },
  ],
  ['sick', { valence: 2.0, when: sickIsPraise }],
  ...['slaps', 'slapped'].map(
    (w) =>
      [
        w,
        {
          valence: 2.3,
          when: (c: SlangContext) => c.predicate || ['it', 'song', 'track', 'beat'].includes(c.prev),
        },
      ] as const,
  ),
  ['mid', { valence: -1.4, when: (c) => c.predicate }],
  // A reply saying "ratio" (this reply will out-like yours) is a put-down; "aspect ratio" is not.
  ['ratio', { valence: -1.6, when: (c) => c.i === 0 || c.short }],
]);

/** "no cap" becomes the booster "nocap really" (its "no" negates nothing); "that's cap", "big cap" are a lie. */
function noCap(c: SlangContext, known: (number | undefined)[]): boolean {
  if (c.prev === 'no') {
    c.lower[c.i - 1] = 'nocap';
    known[c.i - 1] = undefined;
    c.lower[c.i] = 'really';
    known[c.i] = undefined;
  } else if (c.prev === "that's" || c.prev === 'thats' || c.prev === 'is' || c.prev === 'big') {
    known[c.i] = -1.5;
    return true;
  }
  return false;
}

/** "W" / "Ws" a win, "L" / "Ls" a loss, in capitals and not an initial; undefined otherwise. */
function winOrLoss(words: readonly string[], i: number): number | undefined {
  const bare = words[i].replace(TRAILING_PUNCTUATION, '');
  if ((bare === 'W' || bare === 'Ws' || bare === 'L' || bare === 'Ls') && !isInitial(words, i))
    return bare[0] === 'W' ? 2.0 : -2.0;
  return undefined;
}

const CAPITALISED = /^\p{Lu}/u;
/** All capitals ("FIRE", "W"): shouting or the slang letters themselves, not a name. */
const isUpperWord = (w: string): boolean => w === w.toUpperCase();

/**
 * "W" or "L" as a middle initial or part of a name ("George W. Bush", "Samuel L. Jackson",
 * "H. L. Mencken", "L. Nolan Ryan"), not a win or a loss: a capitalised word before it (other than
 * the first word, "Massive W") or after it.
 */
function isInitial(words: readonly string[], i: number): boolean {
  const before = i > 1 ? words[i - 1] : '';
  const after = i < words.length - 1 ? words[i + 1] : '';
  return CAPITALISED.test(before) || CAPITALISED.test(after);
}
