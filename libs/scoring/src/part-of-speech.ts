import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** A word of a sentence (lowercase, as `words()` splits it) with what the tagger reads it as. */
export interface TaggedWord {
  word: string;
  /** A noun or proper noun in either reading of the sentence (any part of "USB-C", "four-day"). */
  noun: boolean;
  /** Universal POS tags of the word's tokens in both readings, punctuation and particles left out. */
  tags: string[];
  /** Something other than spaces stands between this word and the one before (":", "-", "(", an emoji). */
  breakBefore: boolean;
}

// Same word shape as text.ts `words()`: the tags must land on the words topics are built from.
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu;
const NOUN_TAGS = new Set(['NOUN', 'PROPN']);
const CAPITALISED_WORD = /(?<![\p{L}\p{N}'’_-])\p{Lu}/gu;

type Tagger = ReturnType<typeof winkNLP>;
let tagger: Tagger | null = null;

/** winkNLP with its English web model (shipped in the package), loaded on first use. */
function taggerInstance(): Tagger {
  return (tagger ??= winkNLP(model, ['pos']));
}

/** Each token's tag, by character span of the text (wink splits "USB-C" and "grandma's" in parts). */
function spans(text: string): { start: number; end: number; tag: string }[] {
  const nlp = taggerInstance();
  const tokens = nlp.readDoc(text).tokens();
  const values = tokens.out(nlp.its.value) as string[];
  const tags = tokens.out(nlp.its.pos) as string[];
  const out: { start: number; end: number; tag: string }[] = [];
  let cursor = 0;
  values.forEach((value, i) => {
    const at = text.indexOf(value, cursor);
    if (at < 0) return;
    out.push({ start: at, end: at + value.length, tag: tags[i] });
    cursor = at + value.length;
  });
  return out;
}

/** Tags of the tokens inside [start, end), without punctuation and particles ("'s"). */
function tagsWithin(
  tagged: { start: number; end: number; tag: string }[],
  start: number,
  end: number,
): string[] {
  const out: string[] = [];
  for (const t of tagged) {
    if (t.end <= start) continue;
    if (t.start >= end) break;
    if (t.tag !== 'PUNCT' && t.tag !== 'PART') out.push(t.tag);
  }
  return out;
}

/**
 * Tags a word in a noun-phrase frame ("the cast iron"): whether it can be read as
 * a noun or adjective where the sentence around it misleads the tagger ("how cast iron makes life
 * easier" reads "cast" as a verb). `next` is the noun it would modify.
 */
export function tagsInNounFrame(word: string, next: string): string[] {
  return tagsWithin(spans(`the ${word} ${next}`), 4, 4 + word.length);
}

/**
 * Tags a sentence as written and, when it is title-cased, lowercased too: a tagger trained on
 * running text reads title-cased words as proper nouns ("Wrong", "Tiny") and lowercased names as
 * verbs ("swift"), so a word carries the tags of both readings and is a noun when either says so.
 */
export function tagSentence(text: string): TaggedWord[] {
  const asWritten = spans(text);
  const lowered = text.toLowerCase();
  // A second reading only helps where words past the first are capitalised; lowercasing changes
  // lengths for a few letters (İ), and then the written reading stands alone.
  const capitalised = text.match(CAPITALISED_WORD)?.length ?? 0;
  const asLowered = capitalised >= 2 && lowered.length === text.length ? spans(lowered) : asWritten;
  const out: TaggedWord[] = [];
  let previousEnd = 0;
  for (const match of text.matchAll(WORD)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    const tags = [...tagsWithin(asWritten, start, end), ...tagsWithin(asLowered, start, end)];
    const noun = tags.some((t) => NOUN_TAGS.has(t));
    out.push({
      word: match[0].toLowerCase(),
      noun,
      tags,
      breakBefore: out.length > 0 && text.slice(previousEnd, start).trim() !== '',
    });
    previousEnd = end;
  }
  return out;
}
