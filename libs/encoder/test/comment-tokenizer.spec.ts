import { modelSpec } from '@analyst/encoder';
import { CommentTokenizer, prefixOfWords } from '../src/comment-tokenizer';
import { REFERENCE, requireModel, tokenizerJson } from './model-required';

describe('prefixOfWords: a long text is cut where its first N readable words end', () => {
  it('keeps the text whole when it has fewer words', () => {
    expect(prefixOfWords('two words', 3)).toBe('two words');
  });

  it('cuts after the Nth word, at whitespace', () => {
    expect(prefixOfWords('one two  three four', 2)).toBe('one two');
    expect(prefixOfWords('  a\tb\nc d', 3)).toBe('  a\tb\nc');
  });

  it('does not count chunks the tokenizer drops (zero-width, control, U+FFFD alone)', () => {
    expect(prefixOfWords('\u200b \u0007 \ufffd a b', 2)).toBe('\u200b \u0007 \ufffd a b');
    expect(prefixOfWords('\u200b \u0007 \ufffd a b c', 2)).toBe('\u200b \u0007 \ufffd a b');
  });

  it('counts emoji, symbols and CJK as words', () => {
    expect(prefixOfWords('😀 ™ 東京 rest', 3)).toBe('😀 ™ 東京');
  });
});

describe('CommentTokenizer: the ids of Python tokenizers on the same tokenizer.json', () => {
  let tokenizer: CommentTokenizer;
  beforeAll(async () => {
    tokenizer = new CommentTokenizer(tokenizerJson(await requireModel()), modelSpec().maxTokens);
  });

  it('the fixture was made from the files the catalogue names, with the same cut', () => {
    const spec = modelSpec();
    expect([REFERENCE.model, REFERENCE.tokenizerSha256, REFERENCE.maxTokens]).toEqual([
      spec.name,
      spec.files.tokenizer.sha256,
      128,
    ]);
    expect(REFERENCE.tokens).toHaveLength(200);
  });

  it('all 200 texts (emoji, accents, CJK and other scripts, control characters, long texts) get the reference ids', () => {
    const differing = REFERENCE.tokens.filter(
      ({ text, ids }) => JSON.stringify(tokenizer.ids(text)) !== JSON.stringify(ids),
    );
    expect(differing.map((d) => d.text.slice(0, 40))).toEqual([]);
  });

  it('truncates to 128 tokens: [CLS], the first 126 word pieces, [SEP]', () => {
    const ids = tokenizer.ids('word '.repeat(300));
    expect(ids).toHaveLength(128);
    expect([ids[0], ids[1], ids[126], ids[127]]).toEqual([101, 2773, 2773, 102]);
  });

  it('an empty or blank text is [CLS] [SEP] alone', () => {
    expect([tokenizer.ids(''), tokenizer.ids(' \n\t'), tokenizer.ids('\u200b')]).toEqual([
      [101, 102],
      [101, 102],
      [101, 102],
    ]);
  });
});
