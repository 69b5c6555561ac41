import { detectAll } from 'tinyld';
import { LANGUAGE_READERS } from './languages/language-readers';
import { LEXICON } from './vader';

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
const FOREIGN_HINTS: ReadonlyMap<string, readonly string[]> = hintsByWord({
  es: 'que el los las muy es por para con una del pero como esta este está más también gracias',
  pt: 'não muito bom é uma um mais você obrigado também',
  fr: 'le les est et je pas des une très merci du au avec pour qui sont',
  de: 'der die das und ist nicht ich ein eine mit zu auch sehr danke',
  it: 'il che di non sono molto grazie anche',
  nl: 'het een niet ik ook heel bedankt',
  tr: 'bu çok ve bir için',
  id: 'ini itu sangat tidak',
});

/**
 * More frequent words of the languages the scorer reads (none an English word or abbreviation: no
 * "war", "son", "plus", "per", "os"). They send a comment to the detector, whose answer then may only
 * be that language: a tweet in Portuguese written without accents or the words above ("avisa a katia
 * q eh hj") is still read by its own reader.
 */
const READABLE_HINTS: ReadonlyMap<string, readonly string[]> = hintsByWord({
  es:
    'lo se mi yo hay pues hoy eso esto bien bueno así cuando porque tiene fue sus nos qué mucho hasta ser ' +
    'estoy están tengo hace puede siempre ahora vez aquí señor gente día años ya nada todo sin solo',
  pt:
    'eu tá pra hj já vou quem só isso essa esse ela ele tudo agora sempre hoje foi tem vai ao pq tô nao né ' +
    'mas dia gente minha meu seu sua pelo pela está estou ter kkkk kkk kkkkk q na da em o',
  fr: "la ce sur dans mais ne nous vous ils été fait bien rien trop c'est j'ai qu'il n'est ça cette ces mes leur ma mon sa tout aux plus son",
  de:
    'sie wir von auf für aber noch schon nur wie wenn doch jetzt sind kann heute mehr alle immer einen einem ' +
    'keine kein mir dir du ihr uns bei nach oder nichts mal den dem hat war gut aus gegen sich zum hab einfach macht unter meine echt',
  it:
    'questo questa della gli io più tutto oggi bene ancora cosa fatto quando perché sempre nel nella ' +
    'dei delle sei siamo la ma lo mi ti ci hai per',
});

/** Word → the languages it is a frequent word of. */
function hintsByWord(lists: Record<string, string>): ReadonlyMap<string, readonly string[]> {
  const byWord = new Map<string, string[]>();
  for (const [language, list] of Object.entries(lists))
    for (const word of list.split(' ')) {
      if (ENGLISH_WORDS.has(word)) throw new Error(`"${word}" is an English word, no sign of ${language}`);
      byWord.set(word, [...(byWord.get(word) ?? []), language]);
    }
  return byWord;
}
// No `i` flag: case-insensitive matching would let "ı" match every plain "i".
const ACCENTED_WORD = /[À-ÖØ-öø-ÿŒœŠšŽžĞğİıŞş]/;
const OTHER_SCRIPT =
  /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

const WORD = /[\p{L}']+/gu;
const NOT_PROSE = /(?:https?:\/\/|www\.)\S+|\S+\.(?:com|net|org|io|co|ly|be|tv)\b\S*|[@#]\S+/g;
const SEPARATORS = /[|•·]/g;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]{4}/u;
/** Below this many words the detector guesses (one word reads as anything): no language is named. */
const MIN_WORDS = 3;
/** The detector's confidence a non-English answer needs; lower answers leave the comment readable. */
const MIN_ACCURACY = 0.3;
/** The confidence needed when the text shows no sign of any language (no frequent word, few accents). */
const SURE_ACCURACY = 0.9;
/** How far a hinted language's answer must lead the next one. */
const HINTED_MARGIN = 1.5;
/**
 * Languages a comment may be said to be in: the widely written ones. The detector's rarer answers
 * ("eo" for "idk man seems sus") are mostly English slang it has no profile for, so they count as undetermined.
 */
const NAMED = new Set(
  'en es pt fr de it nl sv da no fi pl cs sk hu ro tr ru uk bg sr hr el ar he fa hi bn ur id ms tl vi th ja ko zh ta te'.split(
    ' ',
  ),
);

/** What a comment's words show of its language before the detector is asked. */
interface Signs {
  english: number;
  /**
   * Frequent English words of three letters or more (not "a", "no", "me", common in other languages
   * too) and English sentiment words (VADER's lexicon: "disagree", "troll", "cool").
   */
  englishSigns: number;
  /** Words from either hint list. */
  foreign: number;
  /** Words from FOREIGN_HINTS, the list any language may be named on. */
  common: number;
  accented: number;
  /** Languages whose hint words the comment uses. */
  hinted: Set<string>;
}

function signsOf(words: readonly string[]): Signs {
  const signs: Signs = { english: 0, englishSigns: 0, foreign: 0, common: 0, accented: 0, hinted: new Set() };
  for (const w of words) {
    if (ENGLISH_WORDS.has(w)) {
      signs.english++;
      if (w.length > 2) signs.englishSigns++;
      continue;
    }
    const common = FOREIGN_HINTS.get(w);
    const hints = common ?? READABLE_HINTS.get(w);
    if (hints) {
      signs.foreign++;
      if (common) signs.common++;
      for (const language of hints) signs.hinted.add(language);
    } else if (w.length > 2 && LEXICON.has(w)) signs.englishSigns++;
    if (ACCENTED_WORD.test(w)) signs.accented++;
  }
  return signs;
}

/**
 * The pre-check on a Latin-script comment: English at once, undetermined at once, 'sure' (no sign
 * either way: only a sure detector answer counts) or 'ask' (the detector decides).
 */
function preCheck(words: readonly string[], s: Signs): 'en' | null | 'sure' | 'ask' {
  const n = words.length;
  if (s.foreign === 0 && s.accented * 5 < n) {
    // One accented name in an English sentence ("Absorbing character study by André Turpin") is no sign.
    if (s.english * 4 >= n) return 'en';
    // "ach scheiss drauf dann eben nich" may be named, never a text with an English word ("Flaccid drama
    // and exasperatingly slow journey", which the detector calls Italian; "Nope, completely disagree").
    return s.englishSigns === 0 && wordsToTell(words) ? 'sure' : null;
  }
  if (s.foreign === 0 && s.english * 2 >= n) return 'en';
  // A foreign title or name in an English sentence ("Y Tu Mamá También is hilariously alive, and …").
  if (s.english >= 3 && s.english >= 2 * s.foreign && s.english * 5 >= n) return 'en';
  return 'ask';
}

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
  const signs = otherScript ? null : signsOf(words);
  const step = signs ? preCheck(words, signs) : 'ask';
  if (step === 'en' || step === null) return step;
  // The detector reads the prose alone, without separators: "|" tilts it towards Hindi.
  const answers = detectAll(text.replace(NOT_PROSE, ' ').replace(SEPARATORS, ' '));
  return answerToName(answers, step, signs, words);
}

type Answer = { lang: string; accuracy: number };

/** The language the detector's answers name, given what the comment showed before. */
function answerToName(
  [best, second]: readonly Answer[],
  step: 'sure' | 'ask',
  signs: Signs | null,
  words: readonly string[],
): string | null {
  if (!best || !NAMED.has(best.lang)) return null;
  const anyLanguage = !signs || signs.common > 0 || signs.accented * 5 >= words.length;
  if (step === 'ask' && anyLanguage && best.accuracy >= MIN_ACCURACY) return best.lang;
  // Otherwise only a language the scorer reads may be named: taking English for it costs a reading in
  // the wrong lexicon, never an unscored comment.
  if (!signs || best.lang === 'en' || !READABLE_LANGUAGES.has(best.lang)) return null;
  return readableAnswerStands(best, second, step, signs) ? best.lang : null;
}

function readableAnswerStands(
  best: Answer,
  second: Answer | undefined,
  step: 'sure' | 'ask',
  signs: Signs,
): boolean {
  if (step === 'sure') return best.accuracy >= SURE_ACCURACY;
  if (best.accuracy >= MIN_ACCURACY) return true;
  // A hesitant answer stands when the comment uses that language's own frequent words and no rival is close.
  return signs.hinted.has(best.lang) && best.accuracy >= HINTED_MARGIN * (second?.accuracy ?? 0);
}

/** Whether a text without any frequent word has enough of its own to tell ("HA HA HA HA" has not). */
function wordsToTell(words: readonly string[]): boolean {
  return new Set(words.filter((w) => w.length >= 3)).size >= MIN_WORDS;
}

/** Whether the scorer can read a comment in this language (null: undetermined, read as English). */
export function isReadableLanguage(language: string | null): boolean {
  return language === null || READABLE_LANGUAGES.has(language);
}
