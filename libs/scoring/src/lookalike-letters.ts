/**
 * Letters that look Latin but are not, as spam writes them to slip past word filters: full-width
 * ("ｗｗｗ"), mathematical and enclosed alphanumerics ("𝐟𝐫𝐞𝐞", "ⓕⓡⓔⓔ"), small capitals ("ɪɴᴠᴇꜱᴛ"), accents
 * stacked on plain letters ("hāźeł"), and Cyrillic or Greek letters inside Latin words ("ехаmрlе.соm").
 * The spam reading sees the plain Latin text; nothing else in the scorer does.
 */

/**
 * Characters worth the normalisation: combining marks, Latin Extended-A/B, IPA (small capitals), Greek,
 * Cyrillic, phonetic extensions, Latin Extended Additional, letterlike symbols, enclosed alphanumerics,
 * Latin Extended-D (more small capitals), full-width forms, and the surrogate lead of the mathematical
 * alphanumerics (U+1D400-1D7FF). Plain ASCII, Latin-1 accents and emoji skip it.
 */
const LOOKALIKE =
  /[\u0100-\u036f\u0370-\u03ff\u0400-\u04ff\u1d00-\u1dbf\u1e00-\u1eff\u2100-\u214f\u2460-\u24ff\ua700-\ua7ff\uff00-\uffef]|\ud835/;

const MARKS = /\p{M}+/gu;

/** Pairs each character of `from` with the letter at the same place in `to`. */
function letterMap(from: string, to: string): ReadonlyMap<string, string> {
  const source = [...from];
  if (source.length !== to.length) throw new Error('look-alike lists differ in length');
  return new Map(source.map((ch, i) => [ch, to[i]]));
}

/** Small capitals (there is no small X) and other letters NFKD leaves alone that read as a Latin letter. */
const ALWAYS = letterMap('ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡʏᴢɑɡǝɩıłøđħƈ', 'abcdefghijklmnopqrstuvwyzageiilodhc');

/** Small capitals: no language writes words in them, so using them disguises the letters. */
const SMALL_CAPITAL = /[\u1d00-\u1d22\ua730\ua731\u0262\u026a\u0274\u0280\u028f\u0299\u029c\u029f]/;

/** Cyrillic and Greek letters that look like a Latin one (lowercase: the text is lowercased first). */
const CYRILLIC_GREEK = letterMap(
  'авсԁеһіјкӏмнорԛѕтухԝαβεηικνορτυχγωςμ',
  'abcdehijklmhopqstyxwabeniknoptuxywsu',
);

const FOREIGN = /[\u0370-\u03ff\u0400-\u04ff]/;
const LATIN = /[a-z]/;
const FOREIGN_LETTERS = /[\u0370-\u03ff\u0400-\u04ff]/g;
const LATIN_LETTERS = /[a-z]/g;
const WORD = /\p{L}+/gu;

export interface PlainLetters {
  /** The text with look-alikes read as the Latin letters they imitate (the input itself when there are none). */
  text: string;
  /**
   * Whether the text disguised Latin letters: small capitals or mathematical letters, or a Cyrillic or
   * Greek look-alike inside a word of Latin letters. Accents and full-width forms alone do not count:
   * Japanese and Chinese keyboards type full-width Latin, and many languages write accents.
   */
  disguised: boolean;
}

/** The spam reading's view of a lowercased comment: look-alike letters read as plain Latin ones. */
export function plainLetters(comment: string): PlainLetters {
  // Phones type a curly apostrophe; the signals spell "don't" and "i'm" with a straight one.
  const lower = comment.includes('’') ? comment.replace(/’/g, "'") : comment;
  if (!LOOKALIKE.test(lower)) return { text: lower, disguised: false };
  let disguised = lower.includes('\ud835') || SMALL_CAPITAL.test(lower);
  let text = '';
  for (const ch of lower.normalize('NFKD').replace(MARKS, '').toLowerCase()) text += ALWAYS.get(ch) ?? ch;
  if (!FOREIGN.test(text)) return { text, disguised };
  // A Cyrillic or Greek letter inside a Latin word imitates one. A word all in such letters does so
  // only in Latin text and when each of them looks Latin ("соm"): Russian and Greek keep their letters.
  const latinText = (text.match(LATIN_LETTERS)?.length ?? 0) > (text.match(FOREIGN_LETTERS)?.length ?? 0);
  text = text.replace(WORD, (word) => {
    if (!FOREIGN.test(word)) return word;
    const mixed = LATIN.test(word);
    if (!mixed && !latinText) return word;
    let latin = '';
    for (const ch of word) {
      const mapped = CYRILLIC_GREEK.get(ch);
      if (mapped === undefined && !mixed && FOREIGN.test(ch)) return word;
      latin += mapped ?? ch;
    }
    disguised = true;
    return latin;
  });
  return { text, disguised };
}
