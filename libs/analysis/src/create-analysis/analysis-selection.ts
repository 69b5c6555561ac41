import type { PostEntry, TeamIndex } from '@analyst/comment-index';
import { AnalysisError } from '../errors/analysis-error';
import { findPosts, NO_POST_FILTERS, type PostQuery } from '../posts/post-query';
import { MAX_SELECTION } from './analysis-request.dto';
import type { RequestedSelection } from './analysis-request';

/** Every post of the team, whatever its status: the order an explicit id list is resolved in. */
const ANY_STATUS: PostQuery = { ...NO_POST_FILTERS, status: 'all' };

/** The team's posts a selection names, newest first, cut at 1,000; refused when it names none or another team's. */
export function resolveSelection(
  team: TeamIndex,
  selection: RequestedSelection,
): { posts: PostEntry[]; truncated: boolean } {
  const posts = selectedPosts(team, selection);
  if (posts.length === 0) throw new AnalysisError('empty_selection', 'the selection matches no posts');
  return { posts: posts.slice(0, MAX_SELECTION), truncated: posts.length > MAX_SELECTION };
}

function selectedPosts(team: TeamIndex, s: RequestedSelection): PostEntry[] {
  if (s.type === 'postIds') {
    const unknown = s.postIds.filter((id) => !team.postsById.has(id));
    if (unknown.length > 0)
      throw new AnalysisError(
        'invalid_selection',
        `selection.postIds: not posts of this team: ${unknown.slice(0, 10).join(', ')}`,
      );
    return findPosts(team, ANY_STATUS).filter((p) => s.postIds.includes(p.id));
  }
  if (s.type === 'posts') return findPosts(team, s.posts);
  if (!team.collections.has(s.collectionId))
    throw new AnalysisError(
      'invalid_selection',
      `selection.collectionId ${s.collectionId} is not a collection of this team`,
    );
  return findPosts(team, s.posts ?? NO_POST_FILTERS, team.collectionTree(s.collectionId));
}
