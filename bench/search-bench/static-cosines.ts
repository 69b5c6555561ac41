import { dot, minilmStaticEmbedding, type SearchDocument } from '@analyst/comment-index';
import type { RetrievalQuery } from './retrieval';

const percentiles = (xs: number[], ps: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return ps
    .map(
      (p) => `p${p} ${sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2)}`,
    )
    .join(' ');
};

/**
 * Percentiles of the static table's cosine for query × relevant comment against query × distractor
 * (the first `distractorCount` documents): where `SEMANTIC_FLOOR` and `SEMANTIC_FULL` were read from.
 */
export async function printStaticCosines(
  queries: readonly RetrievalQuery[],
  docs: readonly SearchDocument[],
  distractorCount: number,
): Promise<void> {
  const embedding = await minilmStaticEmbedding();
  const vectors = docs.map((d) => embedding.embed(d.text));
  const relevant: number[] = [];
  const unrelated: number[] = [];
  for (const q of queries) {
    const v = embedding.embed(q.text);
    if (!v) continue;
    const cosine = (i: number) => (vectors[i] ? dot(v, vectors[i]!) : 0);
    for (const i of q.relevant) relevant.push(cosine(i));
    for (let i = 0; i < distractorCount; i++) unrelated.push(cosine(i));
  }
  console.log(`static-table cosine, relevant: ${percentiles(relevant, [10, 25, 50, 75, 90])}`);
  console.log(`static-table cosine, distractors: ${percentiles(unrelated, [50, 90, 95, 99, 99.9])}`);
}
