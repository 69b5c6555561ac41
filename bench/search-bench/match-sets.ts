import type { SearchModel } from '@analyst/comment-index';
import type { CommentKind, LabelledSection } from './labelled-section';

/** The thresholds swept: 0.05, 0.10, ..., 0.95. */
export const THRESHOLDS = Array.from({ length: 19 }, (_, k) => Math.round((k + 1) * 5) / 100);

export interface MatchFigures {
  threshold: number;
  /** Means over queries. An empty match set has precision 1 (nothing wrongly kept) and recall 0. */
  precision: number;
  recall: number;
  f1: number;
  /** Comments kept that mean none of the query, by kind, summed over queries. */
  falseMatches: Record<CommentKind, number>;
}

/** One query's scores over its section, with what is relevant and what is left out. */
interface ScoredQuery {
  scores: Float64Array;
  relevant: Set<number>;
  excluded: Set<number>;
  kinds: CommentKind[];
}

/**
 * Scores each query against its own section's comments (unscored: relevance NaN), once; with
 * `vectors`, the comments come with their stored vectors.
 */
export async function scoreSections(
  model: SearchModel,
  sections: readonly LabelledSection[],
  vectors?: (texts: readonly string[]) => Promise<Int8Array[]>,
): Promise<ScoredQuery[]> {
  const out: ScoredQuery[] = [];
  for (const section of sections) {
    const texts = section.comments.map((c) => c.text);
    const stored = vectors ? await vectors(texts) : undefined;
    const docs = texts.map((text, i) => ({ text, relevance: NaN, vector: stored?.[i] }));
    for (const q of section.queries) {
      if (q.relevant.length === 0) continue;
      out.push({
        scores: await model.relevance(q.text, docs),
        relevant: new Set(q.relevant),
        excluded: new Set(q.excluded),
        kinds: section.comments.map((c) => c.kind),
      });
    }
  }
  return out;
}

/**
 * What a user sees at `threshold`: per query, the section's comments scored above 0 and at least
 * the threshold (as `searchMatchedRows` keeps them); precision, recall and F1 per query, averaged.
 */
export function matchFigures(scored: readonly ScoredQuery[], threshold: number): MatchFigures {
  let precision = 0;
  let recall = 0;
  let f1 = 0;
  const falseMatches: Record<CommentKind, number> = { relevant: 0, unrelated: 0, 'near-miss': 0 };
  for (const q of scored) {
    let kept = 0;
    let hits = 0;
    q.scores.forEach((s, i) => {
      if (q.excluded.has(i) || !(s > 0 && s >= threshold)) return;
      kept++;
      if (q.relevant.has(i)) hits++;
      else falseMatches[q.kinds[i]]++;
    });
    const p = kept ? hits / kept : 1;
    const r = hits / q.relevant.size;
    precision += p;
    recall += r;
    f1 += p + r > 0 ? (2 * p * r) / (p + r) : 0;
  }
  const n = Math.max(1, scored.length);
  return { threshold, precision: precision / n, recall: recall / n, f1: f1 / n, falseMatches };
}

/** The sweep, and the threshold with the best macro-F1 (the lowest of equals). */
export function sweep(scored: readonly ScoredQuery[]): { rows: MatchFigures[]; best: MatchFigures } {
  const rows = THRESHOLDS.map((t) => matchFigures(scored, t));
  const best = rows.reduce((a, b) => (b.f1 > a.f1 ? b : a));
  return { rows, best };
}
