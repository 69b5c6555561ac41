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
 * slang only in capitals (the lexicon has "l" 2.0, which lowercase keeps).
 */
export function slangValences(words: string[], lower: string[], known: (number | undefined)[]): void {
  const n = words.length;
  for (let i = 0; i < n; i++) {
    const w = lower[i];
    // Part of a title or a name ("The Banger Sisters", "Fire Island"): not slang.
    if (
      i > 0 &&
      CAPITALISED.test(words[i]) &&
      !isUpperWord(words[i]) &&
      (CAPITALISED.test(words[i - 1]) || (i < n - 1 && CAPITALISED.test(words[i + 1])))
    )
      continue;
    const fixed = SLANG.get(w);
    if (fixed !== undefined) {
      known[i] = fixed;
      continue;
    }
    const prev = i > 0 ? lower[i - 1] : '';
    const next = i < n - 1 ? lower[i + 1] : '';
    const short = n <= 3;
    // "its" stands for "it's" only at the start ("its fire"); after a verb it is the possessive ("loses its fire").
    const predicateWord = PREDICATE.has(prev) && !(prev === 'its' && i >= 2);
    const predicate = predicateWord || PRAISED.has(next) || short;
    switch (w) {
      case 'fire':
      case 'lit':
      case 'fye':
        if (predicate) known[i] = 2.2;
        break;
      case 'cringe':
        // "so cringe", "cringe video", "made me cringe" judge; "they probably cringe when …" reports someone else's wince.
        if (predicate || prev === 'me' || prev === 'i' || prev === 'us' || prev === 'the' || i === 0)
          known[i] = -1.8;
        break;
      case 'dope':
        // "that's dope", "dope beat"; "inside dope" (information) and "to dope out" stay unread.
        if (predicate) known[i] = 1.9;
        break;
      case 'trash':
        // "this is trash", "absolute trash", "trash take"; "the trash can", "in the trash" are the bin.
        if (predicate && !(next !== '' && !PRAISED.has(next) && prev === 'the')) known[i] = -2.0;
        break;
      case 'sick':
        // "this is sick", "so sick", "sick edit"; "I'm sick", "sick of it", "how sick I get" keep the lexicon's -2.3.
        if (
          next !== 'of' &&
          !SUBJECTS.has(next) &&
          prev !== "i'm" &&
          prev !== 'im' &&
          (predicate || (prev === 'is' && (i < 2 || lower[i - 2] === 'this' || lower[i - 2] === 'that')))
        )
          known[i] = 2.0;
        break;
      case 'slaps':
      case 'slapped':
        if (predicate || prev === 'it' || prev === 'song' || prev === 'track' || prev === 'beat')
          known[i] = 2.3;
        break;
      case 'mid':
        if (predicate) known[i] = -1.4;
        break;
      case 'ratio':
        // A reply saying "ratio" (this reply will out-like yours) is a put-down; "aspect ratio" is not.
        if (i === 0 || short) known[i] = -1.6;
        break;
      case 'cap':
        if (prev === 'no') {
          lower[i - 1] = 'nocap';
          known[i - 1] = undefined;
          lower[i] = 'really';
          known[i] = undefined;
        } else if (prev === "that's" || prev === 'thats' || prev === 'is' || prev === 'big') known[i] = -1.5;
        break;
      case 'it':
        if (PRAISE_IT.has(prev)) known[i - 1] = 2.6;
        break;
      default: {
        const bare = words[i].replace(TRAILING_PUNCTUATION, '');
        if ((bare === 'W' || bare === 'Ws' || bare === 'L' || bare === 'Ls') && !isInitial(words, i))
          known[i] = bare[0] === 'W' ? 2.0 : -2.0;
      }
    }
  }
}

const CAPITALISED = /^\p{Lu}/u;
/** All capitals ("FIRE", "W"): shouting or the slang letters themselves, not a name. */
const isUpperWord = (w: string): boolean => w === w.toUpperCase();

/**
 * "W" or "L" as a middle initial or part of a name ("George W. Bush", "Samuel L. Jackson",
 * "H. L. Mencken", "L. Nolan Ryan"), not a win or a loss: a capitalised word before it (other than
 * the first word, "Massive W") or after it.
 */
function isInitial(words: string[], i: number): boolean {
  const before = i > 1 ? words[i - 1] : '';
  const after = i < words.length - 1 ? words[i + 1] : '';
  return CAPITALISED.test(before) || CAPITALISED.test(after);
}
