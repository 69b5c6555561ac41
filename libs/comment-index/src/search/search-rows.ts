import type { PostEntry, TeamIndex } from '../team-index/team-index';
import type { SearchSpec } from '../comment-filters';
import type { CommentEmbeddings, EmbeddedComments } from './comment-embeddings';
import type { SearchDocument, SearchModel } from './search-model.port';

export interface SearchRunOptions {
  /** Where stored sentence vectors are read and kept, for a model that reads them. */
  embeddings?: CommentEmbeddings | null;
  /** 0..1 as the search goes: embedding comments nobody embedded yet, then scoring them all. */
  onProgress?: (fraction: number) => void;
}

/** Share of the progress that embedding comments without stored vectors takes, when there are any. */
const EMBEDDING_SHARE = 0.9;

/**
 * Rows of the posts' visible comments an AI search keeps: relevance above 0 and at least
 * `minRelevance`. The search job runs this once and records the matched comment ids.
 */
export async function searchMatchedRows(
  model: SearchModel,
  team: TeamIndex,
  posts: readonly PostEntry[],
  search: SearchSpec,
  options: SearchRunOptions = {},
): Promise<Set<number>> {
  const hidden = team.columns.hidden;
  const rows: number[] = [];
  const postOf: string[] = [];
  for (const p of posts)
    for (const r of p.scored?.rows ?? [])
      if (hidden[r] === 0) {
        rows.push(r);
        postOf.push(p.id);
      }
  const onProgress = options.onProgress;
  let stored: EmbeddedComments | null = null;
  let embedded = false;
  if (options.embeddings && model.readsStoredVectors) {
    const versions = posts.flatMap((p) =>
      p.scored?.source
        ? [{ postId: p.id, fetch: p.scored.source.fetch, chunks: p.scored.source.chunks }]
        : [],
    );
    stored = await options.embeddings.vectorsFor(team.teamId, versions, (done, toEmbed) => {
      embedded = toEmbed > 0;
      if (toEmbed > 0) onProgress?.((EMBEDDING_SHARE * done) / toEmbed);
    });
  }
  const documents: SearchDocument[] = rows.map((r, i) => ({
    text: team.details.body(r) ?? '',
    relevance: team.columns.relevance[r],
    vector: stored?.vector(postOf[i], team.commentIds[r]) ?? null,
  }));
  const start = embedded ? EMBEDDING_SHARE : 0;
  const relevance = await model.relevance(
    search.query,
    documents,
    onProgress && ((f) => onProgress(start + (1 - start) * f)),
  );
  const keep = new Set<number>();
  rows.forEach((r, i) => {
    if (relevance[i] > 0 && relevance[i] >= search.minRelevance) keep.add(r);
  });
  return keep;
}
