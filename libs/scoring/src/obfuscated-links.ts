import { MEDIUM_WORDS } from './comment-signals';
import { STOPWORDS } from './text';
import { OPAQUE_TLDS, PROSE_TLDS, SHORTENER_HOSTS, WORD_TLDS, isKnownTld } from './top-level-domains';
import { LEXICON } from './vader';

/**
 * Links, including the ones written to dodge a filter: spaced or spelled-out dots ("freegiftz. net",
 * "winprizesDOTorg", "(dot)com", "[.]", "bit*ly"), "w w w", digits for letters in the domain ("c0m",
 * "b1t.ly"), shorteners, and any known top-level domain, while prose that only looks like one stays
 * prose ("i.e.", "Mr. Smith", "3.5 stars", "version 2.0", "it was good.so good", "U.S."). Reads the
 * plain-letter text (`plainLetters`), so full-width and look-alike letters are already Latin.
 */

/** Words a link shape may hold with no dot, star or slash: "dot", "www", a shortener named alone. */
const NEEDLE_WORDS = ['dot', 'www', 'w w w', 'tinyurl', 'bitly', 'linktree'];
/** A dot or star between letters, or before a generic domain, or opening a bracket: found by the dot or star itself. */
const NEEDLE_MARK = /(?<=[a-z0-9])[.*][a-z0-9]|[.*]\s*(?:com|net|org|info|biz|xyz|ru)\b|[[({<]\s*\./;

/** A cheap test every link shape below passes; most comments fail it and skip the rest. */
function mayHoldLink(text: string): boolean {
  if (text.includes('/')) return true;
  for (const word of NEEDLE_WORDS) if (text.includes(word)) return true;
  return NEEDLE_MARK.test(text);
}

/** A scheme, or "www" and a dot however written, then a name. */
const SCHEME_OR_WWW = /https?:\/\/|\bwww\s*(?:\.|dot\b|[([{<]\s*(?:\.|dot)\s*[)\]}>])\s*[a-z0-9]/;
const SPACED_WWW = /\bw\s+w\s+w\b/g;
/** A shortener's name written without its dot but followed by a path ("bit ly/x"), or named alone. */
const SHORTENER_PATH =
  /\b(?:bit\s*ly|tiny\s*url|cutt\s*ly|goo\s*gl|linktr\s*ee|ow\s*ly|rb\s*gy|is\s*gd)\s*\/\s*[a-z0-9]|\b(?:tinyurl|bitly|linktree)\b/;

/**
 * A name, how its dot is written, and (looked ahead, so a chain of labels is read label by label) the
 * label after it. A dot spelled "dot" may be glued to both words only before a generic domain:
 * "winprizesdotorg", never "anecdotes".
 */
const CANDIDATE =
  /(?<![a-z0-9])([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(\s*[([{<]\s*(?:\.|dot)\s*[)\]}>]\s*|\s+dot\s+|\s*\.\s*|\*|dot(?=(?:com|net|org|info|biz|xyz)\b))(?=([a-z0-9]{2,24})(?![a-z0-9]))/g;

/** Generic domains a spaced dot may stand before ("freegiftz. net"): never a word after a full stop. */
const SPACED_TLDS = new Set(['com', 'net', 'org', 'info', 'biz', 'xyz', 'ru']);

const PATH = /^\s*\/\s*[a-z0-9]/;

const DIGIT_LETTERS: readonly Record<string, string>[] = [
  { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b' },
  { '0': 'o', '1': 'l', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b' },
];

/** The label, and its readings with digits for letters ("c0m", "1nfo") when it has two letters or more. */
function readings(label: string): string[] {
  if (!/\d/.test(label) || (label.match(/[a-z]/g)?.length ?? 0) < 2) return [label];
  return [label, ...DIGIT_LETTERS.map((map) => label.replace(/\d/g, (d) => map[d] ?? d))];
}

/** Words of the scorer's own lists: a name that is one is prose before a full stop, not a domain. */
function isWord(name: string): boolean {
  return STOPWORDS.has(name) || LEXICON.has(name) || MEDIUM_WORDS.has(name);
}

type Separator = 'plain' | 'spaced' | 'spelled' | 'bracketed' | 'glued' | 'star';

/** The kind of a written dot, as the candidate pattern captured it (spaces included). */
function separatorOf(written: string): Separator {
  if (written === '.') return 'plain';
  if (written === '*') return 'star';
  if (written === 'dot') return 'glued';
  if (/[([{<]/.test(written)) return 'bracketed';
  return written.includes('dot') ? 'spelled' : 'spaced';
}

/** Whether a name and label, digits read as letters or not, are a shortener's host ("b1t" + "ly"). */
function isShortener(name: string, label: string): boolean {
  for (const n of readings(name))
    for (const t of readings(label)) if (SHORTENER_HOSTS.has(`${n}.${t}`)) return true;
  return false;
}

/** Whether a dot written this way between this name and this known top-level domain makes a link. */
function writtenDotMakesLink(separator: Separator, name: string, tld: string): boolean {
  switch (separator) {
    case 'plain':
      if (OPAQUE_TLDS.has(tld)) return true;
      return WORD_TLDS.has(tld) && name.length >= 4 && !isWord(name);
    case 'spaced':
      return SPACED_TLDS.has(tld) && !isWord(name);
    case 'bracketed':
      return true;
    case 'spelled':
      return !PROSE_TLDS.has(tld) && !STOPWORDS.has(name);
    case 'glued':
      return name.length >= 3;
    case 'star':
      return !PROSE_TLDS.has(tld) && !isWord(name);
  }
}

/** Whether a name, its written dot and the next label, with what follows the label, are a link. */
function isLinkCandidate(name: string, written: string, label: string, after: string): boolean {
  if (isShortener(name, label)) return true;
  if (name.length < 2 || !/[a-z]/.test(name)) return false;
  const tld = readings(label).find(isKnownTld);
  if (tld === undefined) return false;
  return PATH.test(after) || writtenDotMakesLink(separatorOf(written), name, tld);
}

/** Whether a lowercased, plain-letter comment holds a link in any of the shapes above. */
export function readsAsLink(text: string): boolean {
  if (!mayHoldLink(text)) return false;
  const t = text.includes('w w w') ? text.replace(SPACED_WWW, 'www') : text;
  if (SCHEME_OR_WWW.test(t) || SHORTENER_PATH.test(t)) return true;
  CANDIDATE.lastIndex = 0;
  for (let m = CANDIDATE.exec(t); m !== null; m = CANDIDATE.exec(t)) {
    const labelEnd = CANDIDATE.lastIndex + m[3].length;
    if (isLinkCandidate(m[1], m[2], m[3], t.slice(labelEnd, labelEnd + 4))) return true;
  }
  return false;
}
