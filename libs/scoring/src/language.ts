import { detectAll } from 'tinyld';
import { LANGUAGE_READERS } from './languages/language-readers';

// Which language a comment is written in, so a comment the English lexicon cannot read is left
// unscored instead of counted as a neutral opinion. tinyld (n-gram profiles of 60+ languages, data
// shipped in the package, no network) decides, but it costs about 150 µs a comment, so it only sees
// comments with a sign of another language (another script, an accented letter, a frequent function
// word of another language); one without such a sign and a quarter frequent English words is English at once.

/** Languages the scorer reads. */
export const READABLE_LANGUAGES: ReadonlySet<string> = new Set(['en', ...LANGUAGE_READERS.keys()]);

/** Frequent English words: when they make up a quarter of a comment, it is English. */
const ENGLISH_WORDS = new Set(
  (
    'the a an and or but if so to of in on at for with from by about as into than then too also only just not no yes ' +
    "is are was were be been being am do does did done have has had will would should could can can't won't don't didn't doesn't isn't " +
    "it its it's this that these those there here what who whom whose which how why when where all any some every each more most much many " +
    "i i'm i've i'd me my mine you you're your yours we we're our us they they're their them he he's his him she she's her " +
    'one two first new good great nice best better love like really very well thanks thank thx please know think see get got make made ' +
    'video videos content channel post thread comment people guy guys man bro lol lmao omg wow agree agreed true exactly same right wrong ' +
    'time year day today now never always still again back way thing things stuff something nothing everyone someone nobody watch watching'
  ).split(' '),
);

/**
 * Frequent function words of the other widely written Latin-script languages (none of them an
 * English word, nor a letter that names things in English, like Spanish "y" in "Y Tu Mamá También"):
 * a comment with none of these and few accented words is not worth the detector's time.
 */
const FOREIGN_HINTS = new Set(
  (
    'que el los las muy es por para con una del pero como esta este está más también gracias ' +
    'não muito bom é uma um mais você obrigado também ' +
    'le les est et je pas des une très merci du au avec pour qui sont ' +
    'der die das und ist nicht ich ein eine mit zu auch sehr danke ' +
    'il che di non sono molto grazie anche ' +
    'het een niet ik ook heel bedankt ' +
    'bu çok ve bir için ' +
    'ini itu sangat tidak'
  ).split(' '),
);
// No `i` flag: case-insensitive matching would let "ı" match every plain "i".
const ACCENTED_WORD = /[À-ÖØ-öø-ÿŒœŠšŽžĞğİıŞş]/;
const OTHER_SCRIPT =
  /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

const WORD = /[\p{L}']+/gu;
const NOT_PROSE = /(?:https?:\/\/|www\.)\S+|\S+\.(?:com|net|org|io|co|ly|be|tv)\b\S*|[@#]\S+/g;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]{4}/u;
/** Below this many words the detector guesses (one word reads as anything): no language is named. */
const MIN_WORDS = 3;
/** The detector's confidence a non-English answer needs; lower answers leave the comment readable. */
const MIN_ACCURACY = 0.3;
/**
 * Languages a comment may be said to be in: the widely written ones. The detector's rarer answers
 * ("eo" for "idk man seems sus") are mostly English slang it has no profile for, so they count as undetermined.
 */
const NAMED = new Set(
  'en es pt fr de it nl sv da no fi pl cs sk hu ro tr ru uk bg sr hr el ar he fa hi bn ur id ms tl vi th ja ko zh ta te'.split(
    ' ',
  ),
);

/**
 * The ISO 639-1 code of the comment's language, or null when it cannot be told (fewer than three
 * words, emoji, links, or no confident answer). A null language is read as English.
 */
export function detectLanguage(text: string): string | null {
  // Links and handles say nothing about the language ("13abc.com" is not Portuguese "com").
  const words = text.toLowerCase().replace(NOT_PROSE, ' ').match(WORD);
  if (!words) return null;
  // Scripts written without spaces (Chinese, Japanese, Thai) are one long "word": count letters there.
  if (words.length < MIN_WORDS && !(words.length > 0 && UNSPACED.test(text))) return null;
  const otherScript = OTHER_SCRIPT.test(text);
  if (!otherScript) {
    let english = 0;
    let foreign = 0;
    let accented = 0;
    for (const w of words) {
      if (ENGLISH_WORDS.has(w)) english++;
      else if (FOREIGN_HINTS.has(w)) foreign++;
      if (ACCENTED_WORD.test(w)) accented++;
    }
    // One accented name in an English sentence ("Absorbing character study by André Turpin") is no sign.
    if (foreign === 0 && accented * 5 < words.length) return english * 4 >= words.length ? 'en' : null;
    if (foreign === 0 && english * 2 >= words.length) return 'en';
    // A foreign title or name in an English sentence ("Y Tu Mamá También is hilariously alive, and …").
    if (english >= 3 && english >= 2 * foreign && english * 5 >= words.length) return 'en';
  }
  const [best] = detectAll(text);
  if (!best || best.accuracy < MIN_ACCURACY || !NAMED.has(best.lang)) return null;
  return best.lang;
}

/** Whether the scorer can read a comment in this language (null: undetermined, read as English). */
export function isReadableLanguage(language: string | null): boolean {
  return language === null || READABLE_LANGUAGES.has(language);
}
