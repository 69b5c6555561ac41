import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dot, loadLocalEncoder, modelSpec, SentenceEncoder } from '@analyst/encoder';
import { REFERENCE, requireModel } from './model-required';

const QUERY = 'hard to assemble';
const PARAPHRASE = 'the instructions made no sense and two screws were missing';
const UNRELATED = 'I love the way she sings this song';

describe('the local encoder (all-MiniLM-L6-v2 int8 in a worker thread)', () => {
  let encoder: SentenceEncoder;
  beforeAll(async () => {
    await requireModel();
    const loaded = await loadLocalEncoder();
    if (!loaded) throw new Error('loadLocalEncoder returned null with the model files present');
    encoder = loaded;
  }, 60_000);
  afterAll(() => encoder?.close());

  it('names its model and dimensions', () => {
    expect([encoder.model, encoder.dims]).toEqual(['all-minilm-l6-v2-q', 384]);
  });

  it('matches the vectors Python onnxruntime computes from the same file (cosine ≥ 0.999)', async () => {
    expect(REFERENCE.modelSha256).toBe(modelSpec().files.model.sha256);
    const vectors = await encoder.embed(REFERENCE.vectors.map((r) => r.text));
    const cosines = REFERENCE.vectors.map((r, i) => dot(vectors[i], Float32Array.from(r.vector)));
    expect(cosines).toHaveLength(11);
    for (const c of cosines) expect(c).toBeGreaterThanOrEqual(0.999);
  });

  it('a paraphrase scores a higher cosine than an unrelated comment', async () => {
    const [query, paraphrase, unrelated] = await encoder.embed([QUERY, PARAPHRASE, UNRELATED]);
    expect(dot(query, paraphrase)).toBeCloseTo(0.399, 2);
    expect(dot(query, unrelated)).toBeCloseTo(0.052, 2);
  });

  it('vectors are unit length; an empty or blank text is the zero vector', async () => {
    const vectors = await encoder.embed(['', 'great video', '   ', '😂😂😂', 'x '.repeat(3000)]);
    expect(vectors.map((v) => Number(Math.sqrt(dot(v, v)).toFixed(5)))).toEqual([0, 1, 0, 1, 1]);
    expect(vectors.every((v) => v.length === 384)).toBe(true);
  });

  it('is deterministic, and a text gets the same vector alone, in a batch, or beside concurrent calls', async () => {
    const texts = REFERENCE.tokens.slice(0, 80).map((t) => t.text);
    const together = await encoder.embed(texts);
    const again = await encoder.embed(texts);
    const oneByOne = await Promise.all(texts.map(async (t) => (await encoder.embed([t]))[0]));
    const reversed = (await encoder.embed([...texts].reverse())).reverse();
    for (const other of [again, oneByOne, reversed])
      expect(other.map((v) => Array.from(v))).toEqual(together.map((v) => Array.from(v)));
  }, 30_000);

  it('an empty call gives an empty answer', async () => {
    expect(await encoder.embed([])).toEqual([]);
  });

  it('concurrent calls each get their own texts back, in order', async () => {
    const calls = [
      ['first call a', 'first call b'],
      ['second call'],
      Array.from({ length: 70 }, (_, i) => `third call comment ${i}`),
    ];
    const answers = await Promise.all(calls.map((texts) => encoder.embed(texts)));
    const alone = await Promise.all(calls.map((texts) => encoder.embed([texts[texts.length - 1]])));
    expect(answers.map((a) => a.length)).toEqual([2, 1, 70]);
    answers.forEach((answer, i) =>
      expect(Array.from(answer[answer.length - 1])).toEqual(Array.from(alone[i][0])),
    );
  });
});

describe('loadLocalEncoder without the model files', () => {
  it('returns null and says why: the missing files and the command that brings them', async () => {
    const reasons: string[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'encoder-missing-'));
    expect(await loadLocalEncoder({ modelDir: dir, onUnavailable: (r) => reasons.push(r) })).toBeNull();
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toContain(`${join(dir, 'all-minilm-l6-v2-q.onnx')} is missing`);
    expect(reasons[0]).toContain('npm run model:fetch');
  });

  it('refuses files that are not the catalogue bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'encoder-wrong-'));
    writeFileSync(join(dir, 'all-minilm-l6-v2-q.onnx'), 'not a model');
    writeFileSync(join(dir, 'all-minilm-l6-v2-q-tokenizer.json'), '{}');
    const reasons: string[] = [];
    expect(await loadLocalEncoder({ modelDir: dir, onUnavailable: (r) => reasons.push(r) })).toBeNull();
    expect(reasons[0]).toContain('all-minilm-l6-v2-q.onnx has 11 bytes, expected 22972370');
  });

  it('rejects bad options', async () => {
    await expect(loadLocalEncoder({ threads: 0 })).rejects.toThrow(
      'threads must be a positive integer (got 0)',
    );
    await expect(loadLocalEncoder({ model: 'gpt' })).rejects.toThrow(
      'gpt is not a model of libs/encoder/models.json',
    );
  });
});
