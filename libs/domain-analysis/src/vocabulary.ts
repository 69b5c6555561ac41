import { CLOUD_STOPWORDS } from './cloud-stopwords';

/**
 * Words too common to index for search (`bm25-search.ts`); clouds leave out these and `CLOUD_STOPWORDS`.
 * Keyword filters still match them.
 */
export const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves im ive dont doesnt didnt cant wont isnt its thats youre get got like ' +
    'also really one even much many lol u ur yeah yes oh ok okay'
  ).split(' '),
);

/** Left out of clouds: stopwords, filler (`cloud-stopwords.ts`), words under 3 letters, numbers. */
export function isCloudStopword(word: string): boolean {
  return word.length < 3 || STOPWORDS.has(word) || CLOUD_STOPWORDS.has(word) || /^\d+$/.test(word);
}

export type TokenKind = 'word' | 'emoji';

// Emoji: a pictographic base with optional modifiers/ZWJ joins, or a flag pair.
const TOKEN =
  /(\p{Regional_Indicator}{2}|\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F|\u200D\p{Extended_Pictographic}\uFE0F?)*)|([\p{L}\p{N}]+(?:'[\p{L}]+)?)/gu;

/**
 * Splits a comment body into lowercase word tokens and emoji tokens, in order. Apostrophes inside
 * words are dropped so "don't" and "dont" meet.
 */
export function tokenize(text: string): { text: string; kind: TokenKind }[] {
  const out: { text: string; kind: TokenKind }[] = [];
  for (const match of text.matchAll(TOKEN)) {
    if (match[1]) out.push({ text: match[1].replace(/\uFE0F/g, ''), kind: 'emoji' });
    else out.push({ text: match[2].toLowerCase().replace(/'/g, ''), kind: 'word' });
  }
  return out;
}

export const hasQuestionMark = (text: string): boolean => text.includes('?');
export const hasMention = (text: string): boolean => /(^|[^\w])@\w/.test(text);

/** Interns terms to dense ids, so comment bodies live in the columns as Uint32 token ids. */
export class Vocabulary {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly kinds: TokenKind[] = [];
  private stop = new Uint8Array(1024);

  get size(): number {
    return this.terms.length;
  }

  intern(term: string, kind: TokenKind): number {
    const key = kind === 'emoji' ? `\u0000${term}` : term;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(key, id);
      this.terms.push(term);
      this.kinds.push(kind);
      if (id >= this.stop.length) {
        const next = new Uint8Array(this.stop.length * 2);
        next.set(this.stop);
        this.stop = next;
      }
      this.stop[id] = kind === 'word' && isCloudStopword(term) ? 1 : 0;
    }
    return id;
  }

  /** Id of a word or emoji already seen, or -1. */
  lookup(term: string, kind: TokenKind = 'word'): number {
    return this.ids.get(kind === 'emoji' ? `\u0000${term}` : term) ?? -1;
  }

  term(id: number): string {
    return this.terms[id];
  }

  kind(id: number): TokenKind {
    return this.kinds[id];
  }

  /** Left out of clouds (`isCloudStopword`); phrases never start or end on one. */
  isStop(id: number): boolean {
    return this.stop[id] === 1;
  }

  /** Token ids of a text, interning new terms. */
  encode(text: string): number[] {
    return tokenize(text).map((t) => this.intern(t.text, t.kind));
  }

  /** Token ids of a filter phrase; null when some word never occurs (nothing can match it). */
  encodeExisting(text: string): number[] | null {
    const ids = tokenize(text).map((t) => this.lookup(t.text, t.kind));
    return ids.length === 0 || ids.includes(-1) ? null : ids;
  }
}
