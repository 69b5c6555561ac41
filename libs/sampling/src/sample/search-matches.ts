import { Bm25SearchModel, candidateRows, type PostEntry, type SearchModel, type SearchSpec, type TeamIndex } from '@analyst/analysis';

/**
 * AI-search matches of an analysis. The analysis job keeps them only in memory while it rolls up
 * (nothing in the log records which comments matched), so sampling recomputes them once per
 * analysis with the same rule as the job (`relevance > 0` and `>= minRelevance`) over the same
 * rows. With the local BM25 model (the standalone default) the result is the job's exactly; with
 * an embeddings endpoint it is only as stable as that endpoint. The cache is bounded, and keyed by
 * the team index's generation: a compaction renumbers rows. Callers hold the team while they use
 * the matcher.
 */
export class SearchMatches {
  private readonly cache = new Map<string, Promise<ReadonlySet<number>>>();

  constructor(
    private readonly model: SearchModel = new Bm25SearchModel(),
    private readonly capacity = 32,
  ) {}

  matcher(analysisId: string, team: TeamIndex, posts: readonly PostEntry[], search: SearchSpec): Promise<(row: number) => boolean> {
    const key = `${analysisId}@${team.generation}`;
    let pending = this.cache.get(key);
    if (!pending) {
      pending = this.compute(team, posts, search);
      this.cache.set(key, pending);
      pending.catch(() => this.cache.delete(key));
      if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value!);
    }
    return pending.then((keep) => (row: number) => keep.has(row));
  }

  private async compute(team: TeamIndex, posts: readonly PostEntry[], search: SearchSpec): Promise<ReadonlySet<number>> {
    const hidden = team.columns.hidden;
    const rows = Array.from(candidateRows(team, posts).rows).filter((r) => hidden[r] === 0);
    const relevance = await this.model.relevance(
      search.query,
      rows.map((r) => ({ text: team.bodies[r] ?? '', relevance: team.columns.relevance[r] })),
    );
    const keep = new Set<number>();
    rows.forEach((r, i) => {
      if (relevance[i] > 0 && relevance[i] >= search.minRelevance) keep.add(r);
    });
    return keep;
  }
}
