import { Tokenizer } from '@huggingface/tokenizers';

/**
 * A chunk of text between the whitespace both tokenizers agree on, that yields at least one token:
 * a letter, digit, punctuation mark or symbol survives BERT's normalizer (which drops control and
 * format characters and U+FFFD, and only strips accents off letters).
 */
const WORD = /[^ \t\n\r]+/g;
const READABLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/**
 * The start of `text` that holds its first `words` readable chunks, cut at whitespace: each such
 * chunk is at least one token, so a text truncated to `words` tokens reads the same from the
 * prefix, and a 10,000-character comment is not tokenized whole to keep its first 126 tokens.
 */
export function prefixOfWords(text: string, words: number): string {
  let seen = 0;
  for (const match of text.matchAll(WORD)) {
    if (!READABLE.test(match[0].replace(/\uFFFD/g, ''))) continue;
    if (++seen === words) return text.slice(0, (match.index ?? 0) + match[0].length);
  }
  return text;
}

/**
 * The model's own tokenizer (its tokenizer.json, read by Hugging Face's tokenizers.js: BERT
 * normalizer, lower case, accents stripped, WordPiece) with the truncation the reference applies:
 * [CLS], the first maxTokens - 2 word pieces, [SEP]. Ids match Python's `tokenizers` on the same
 * file (test fixture).
 */
export class CommentTokenizer {
  private readonly tokenizer: Tokenizer;

  constructor(
    tokenizerJson: object,
    readonly maxTokens: number,
  ) {
    this.tokenizer = new Tokenizer(tokenizerJson, {});
  }

  /** Token ids of `text`, [CLS] and [SEP] included, at most maxTokens of them. */
  ids(text: string): number[] {
    const ids = this.tokenizer.encode(prefixOfWords(text, this.maxTokens)).ids;
    if (ids.length <= this.maxTokens) return ids;
    return [...ids.slice(0, this.maxTokens - 1), ids[ids.length - 1]];
  }
}
