import type { PostEntry, TeamIndex } from '../comment-index';
import type { SearchSpec } from '../comment-filters';
import type { SearchModel } from './search-model.port';

/**
 * Rows of the posts' visible comments an AI search keeps: relevance above 0 and at least
 * `minRelevance`. The search job runs this once and records the matched comment ids.
 */
export async function searchMatchedRows(
  model: SearchModel,
  team: TeamIndex,
  posts: readonly PostEntry[],
  search: SearchSpec,
): Promise<Set<number>> {
  const hidden = team.columns.hidden;
  const rows: number[] = [];
  for (const p of posts) for (const r of p.scored?.rows ?? []) if (hidden[r] === 0) rows.push(r);
  const relevance = await model.relevance(
    search.query,
    rows.map((r) => ({ text: team.bodies[r] ?? '', relevance: team.columns.relevance[r] })),
  );
  const keep = new Set<number>();
  rows.forEach((r, i) => {
    if (relevance[i] > 0 && relevance[i] >= search.minRelevance) keep.add(r);
  });
  return keep;
}
