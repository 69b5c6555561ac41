import { dot, minilmStaticEmbedding, StaticEmbedding } from '../src';
import weights from '../src/search/minilm-static-embedding.weights.json';
import { WordPiece } from '../src/search/wordpiece';

describe('the committed MiniLM static embedding', () => {
  let embedding: StaticEmbedding;
  beforeAll(async () => {
    embedding = await minilmStaticEmbedding();
  });

  it('loads from the source tree (no file read, no download) with the distilled shape, once', async () => {
    expect(embedding.dims).toBe(weights.meta.dims);
    expect(weights.meta.teacher.licence).toBe('Apache-2.0');
    expect(weights.tokens.split('\n')).toHaveLength(weights.meta.tokens);
    expect(await minilmStaticEmbedding()).toBe(embedding);
  });

  it('gives unit vectors, the same for the same text, none without a content word', () => {
    const v = embedding.embed('costs an arm and a leg')!;
    expect(dot(v, v)).toBeCloseTo(1, 12);
    expect(Array.from(embedding.embed('costs an arm and a leg')!)).toEqual(Array.from(v));
    expect(embedding.embed('the and of it')).toBeNull();
    expect(embedding.embed('')).toBeNull();
  });

  it('puts a paraphrase closer to the query than unrelated text', () => {
    const q = embedding.embed('too expensive')!;
    const near = dot(q, embedding.embed('not worth the money')!);
    for (const far of ['my cat sleeps all day', 'the goalkeeper saved a penalty', 'nice colour on the walls'])
      expect([far, near > dot(q, embedding.embed(far)!) + 0.2]).toEqual([far, true]);
  });

  it('ignores case and accents, as the teacher does', () => {
    expect(Array.from(embedding.embed('CAFÉ Crème')!)).toEqual(Array.from(embedding.embed('cafe creme')!));
  });

  it('refuses weights whose sizes disagree with the vocabulary', () => {
    expect(
      () =>
        new StaticEmbedding({
          tokens: ['a', 'b'],
          dims: 2,
          vectors: new Int8Array(3),
          scales: new Float32Array(2),
        }),
    ).toThrow('static embedding weights do not match their vocabulary');
  });
});

describe('WordPiece', () => {
  const wp = new WordPiece(['over', '##price', '##d', 'price', 'cafe']);

  it('cuts a word into the longest pieces the vocabulary has', () => {
    expect(wp.pieces('overpriced')).toEqual([0, 1, 2]);
    expect(wp.pieces('price')).toEqual([3]);
    expect(wp.pieces('café')).toEqual([4]);
  });

  it('gives nothing for a word with a part outside the vocabulary, or longer than 100 characters', () => {
    expect(wp.pieces('overpricex')).toEqual([]);
    expect(wp.pieces('')).toEqual([]);
    expect(wp.pieces('a'.repeat(101))).toEqual([]);
  });
});
