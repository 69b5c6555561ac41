/**
 * The teacher's WordPiece tokenizer (BERT uncased), for one word at a time: the caller has already
 * split the text into lowercase words. Accents are stripped as the teacher's normalizer does, so
 * "café" finds the vectors of "cafe". The distilled vocabulary also holds whole words the teacher
 * splits ("overpriced"), and the longest match takes them before their pieces.
 */
export class WordPiece {
  private readonly rows = new Map<string, number>();

  constructor(tokens: readonly string[]) {
    tokens.forEach((token, row) => this.rows.set(token, row));
  }

  /** Rows of the word's pieces, longest match first; [] when a part of it is not in the vocabulary. */
  pieces(word: string): number[] {
    const chars = [...word.normalize('NFD').replace(/\p{Mn}/gu, '')];
    // The teacher gives up on words this long too.
    if (chars.length === 0 || chars.length > 100) return [];
    const out: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let row: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? '##' : '') + chars.slice(start, end).join('');
        row = this.rows.get(piece);
        if (row !== undefined) break;
        end--;
      }
      if (row === undefined) return [];
      out.push(row);
      start = end;
    }
    return out;
  }
}

/** CJK ideographs are words of their own to the teacher (its pre-tokenizer splits them apart). */
const CJK =
  /([\u4E00-\u9FFF\u3400-\u4DBF\u{20000}-\u{2A6DF}\u{2A700}-\u{2B73F}\u{2B740}-\u{2B81F}\u{2B820}-\u{2CEAF}\uF900-\uFAFF\u{2F800}-\u{2FA1F}])/u;

/** A lowercase word as the teacher's pre-tokenizer would cut it: CJK ideographs one by one. */
export function teacherWords(word: string): string[] {
  return CJK.test(word) ? word.split(CJK).filter((w) => w.length > 0) : [word];
}
