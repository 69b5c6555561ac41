import {
  searchMatchedRows,
  type CommentEmbeddings,
  type PostEntry,
  type SearchModel,
  type SearchSpec,
  type TeamIndex,
} from '@analyst/comment-index';
import { analysisStream, type AnalysisEvent } from '@analyst/domain-analysis';
import { eventsOf, type EventStore } from '@analyst/platform';

type Matched = Extract<AnalysisEvent, { type: 'AnalysisSearchMatched' }>;
const isMatched = eventsOf<Matched>(['AnalysisSearchMatched']);

/** Whether a row of the team is one of the comments the search matched. */
type Matcher = (team: TeamIndex, row: number) => boolean;

/**
 * The comments an AI-search analysis matched. The search job records their ids on the analysis
 * stream (`AnalysisSearchMatched`), so a sample returns exactly the comments the analysis counted,
 * whatever the search model would answer today, and never runs the search again. Analyses from
 * before matches were recorded have none on their stream; for those the search is run again with
 * the same rule over the same rows (exact with the local encoder search, which is deterministic),
 * keyed by the index generation since it yields row numbers. The cache is bounded.
 */
export class SearchMatches {
  /** By analysis (the recorded matches, null when none) and by analysis and index generation (recomputed). */
  private readonly cache = new Map<string, Promise<Matcher | null>>();

  constructor(
    private readonly events: EventStore,
    private readonly model: SearchModel,
    private readonly embeddings: CommentEmbeddings | null = null,
    private readonly capacity = 32,
  ) {}

  /** Callers hold the team until they are done with the matcher (the fallback keeps row numbers). */
  async matcher(
    analysisId: string,
    team: TeamIndex,
    posts: readonly PostEntry[],
    search: SearchSpec,
  ): Promise<(row: number) => boolean> {
    const recorded = await this.cached(analysisId, () => this.recorded(analysisId));
    if (recorded) return (row) => recorded(team, row);
    const key = `${analysisId}@${team.generation}`;
    const recomputed = (await this.cached(key, async () => {
      const rows = await searchMatchedRows(this.model, team, posts, search, { embeddings: this.embeddings });
      return (_team: TeamIndex, row: number) => rows.has(row);
    }))!;
    return (row) => recomputed(team, row);
  }

  private async recorded(analysisId: string): Promise<Matcher | null> {
    const events = await this.events.readStream(analysisStream(analysisId));
    const matched = events.filter(isMatched);
    if (matched.length === 0) return null;
    const ids = new Set(matched.flatMap((e) => e.data.commentIds));
    return (team, row) => ids.has(team.commentIds[row]);
  }

  private cached(key: string, load: () => Promise<Matcher | null>): Promise<Matcher | null> {
    let pending = this.cache.get(key);
    if (!pending) {
      pending = load();
      this.cache.set(key, pending);
      pending.catch(() => this.cache.delete(key));
      if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value!);
    }
    return pending;
  }
}
