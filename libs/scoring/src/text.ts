import { porter2 } from './third-party';

/** Common English function words (and chat filler) that carry no topic. */
export const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are aren as at be because been before being below between both but by can cannot could ' +
    'did do does doing don down during each few for from further get got had has have having he her here hers herself him himself his how i if in into ' +
    'is isn it its itself just let me more most my myself no nor not now of off on once only or other ought our ours ourselves out over own same she ' +
    'should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were ' +
    'what when where which while who whom why will with would you your yours yourself yourselves im ive id youre dont doesnt didnt cant wont isnt ' +
    "it's i'm i've don't doesn't didn't can't won't isn't you're that's there's what's let's lol lmao tbh imo omg yeah yes ok okay oh like really " +
    'one thing things way much many even still ever every anyone someone everyone something anything nothing want know think see make made going ' +
    'gonna gotta wanna us u ur pls please thanks thank'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu;
const stemCache = new Map<string, string>();

/** Porter2 stem of a lowercase word, cached (comment vocabularies repeat heavily). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = porter2(word.replace(/’/g, "'"));
    if (stemCache.size < 200_000) stemCache.set(word, s);
  }
  return s;
}

/** Lowercase word tokens of a text. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** Stems of the content words (not stopwords, not bare numbers, at least 2 characters). */
export function contentStems(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    if (t.length < 2 || STOPWORDS.has(t) || /^\d+$/.test(t)) continue;
    out.push(stem(t));
  }
  return out;
}
