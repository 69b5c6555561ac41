import { readFileSync } from 'node:fs';
import { stems, type SearchDocument } from '@analyst/comment-index';
import type { LabelledSection } from './labelled-section';
import type { RetrievalQuery } from './retrieval';

/**
 * The retrieval task of a split: the distractors first, then every section's relevant comments
 * (each once, whichever queries it means); each query ranks them all. Unrelated comments and near
 * misses stay out: they are the match sets' business.
 */
export function retrievalPool(
  distractors: readonly string[],
  sections: readonly LabelledSection[],
): { docs: SearchDocument[]; queries: RetrievalQuery[] } {
  const docs: SearchDocument[] = distractors.map((text) => ({ text, relevance: NaN }));
  const queries: RetrievalQuery[] = [];
  for (const section of sections) {
    const at = new Map<number, number>();
    section.comments.forEach((c, i) => {
      if (c.kind === 'relevant') at.set(i, docs.push({ text: c.text, relevance: NaN }) - 1);
    });
    for (const q of section.queries) {
      if (q.relevant.length === 0) continue;
      queries.push({
        text: q.text,
        relevant: q.relevant.map((i) => at.get(i)!),
        ignored: q.excluded.map((i) => at.get(i)!),
      });
    }
  }
  return { docs, queries };
}

/**
 * Labelled paraphrase pairs from a TSV file (`sentence1<TAB>sentence2`, one pair a line), added to
 * the pool: the first side a query, the second its one relevant comment. Pairs that share a stem
 * are skipped. Such corpora stay outside the repository (see the comment-index README).
 */
export function addPairsFromFile(file: string, docs: SearchDocument[]): RetrievalQuery[] {
  const out: RetrievalQuery[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [a, b] = line.split('\t').map((x) => x?.trim());
    if (!a || !b) continue;
    const left = new Set(stems(a));
    const right = stems(b);
    if (left.size === 0 || right.length === 0 || right.some((s) => left.has(s))) continue;
    out.push({ text: a, relevant: [docs.push({ text: b, relevance: NaN }) - 1], ignored: [] });
  }
  return out;
}
