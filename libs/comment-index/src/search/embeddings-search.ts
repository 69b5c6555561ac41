import type { SearchDocument, SearchModel } from './search-model.port';

export const EMBEDDINGS_BATCH = 128;

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * AI search through an embeddings endpoint (`ANALYST_EMBEDDINGS_URL`, optional
 * `ANALYST_EMBEDDINGS_KEY` as a Bearer token, `ANALYST_EMBEDDINGS_MODEL`). It speaks the common
 * shape: POST `{ model, input: string[] }` → `{ data: [{ embedding: number[], index }] }`.
 * Relevance is the cosine similarity to the query, clamped to 0..1. A non-2xx answer fails the job.
 */
export class EmbeddingsSearchModel implements SearchModel {
  readonly name = 'embeddings';

  constructor(
    private readonly url: string,
    private readonly options: { apiKey?: string; model?: string; fetchImpl?: typeof fetch } = {},
  ) {}

  private async embed(input: string[]): Promise<number[][]> {
    const response = await (this.options.fetchImpl ?? fetch)(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: this.options.model ?? 'default', input }),
    });
    if (!response.ok) throw new Error(`embeddings endpoint answered ${response.status}`);
    const body = (await response.json()) as { data?: { embedding: number[]; index?: number }[] };
    if (!Array.isArray(body.data) || body.data.length !== input.length)
      throw new Error('embeddings endpoint returned a malformed answer');
    return body.data
      .map((d, i) => ({ e: d.embedding, i: d.index ?? i }))
      .sort((a, b) => a.i - b.i)
      .map((d) => d.e);
  }

  async relevance(
    query: string,
    documents: readonly SearchDocument[],
    onProgress?: (fraction: number) => void,
  ): Promise<Float64Array> {
    const out = new Float64Array(documents.length);
    const [q] = await this.embed([query]);
    for (let start = 0; start < documents.length; start += EMBEDDINGS_BATCH) {
      const batch = documents.slice(start, start + EMBEDDINGS_BATCH);
      const vectors = await this.embed(batch.map((d) => d.text));
      vectors.forEach((v, i) => (out[start + i] = Math.max(0, Math.min(1, cosine(q, v)))));
      onProgress?.(Math.min(1, (start + batch.length) / documents.length));
    }
    return out;
  }
}
