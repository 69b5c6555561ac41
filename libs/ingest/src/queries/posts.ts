import { withoutMeta, type ReadStore } from '@analyst/platform';
import { ACTIVITY, POSTS } from '../ingest.tokens';
import type { ActivityDoc } from '../projections/activity.projector';
import type { PostDoc } from '../projections/post-doc';

export async function findPost(store: ReadStore, postId: string): Promise<PostDoc | null> {
  const doc = await store.collection<PostDoc>(POSTS).findOne({ _id: postId });
  return doc ? withoutMeta(doc) : null;
}

/** The team's posts among these normalized links, by link. */
export async function findPostsByLinks(
  store: ReadStore,
  teamId: string,
  normalizedLinks: string[],
): Promise<Map<string, PostDoc>> {
  if (normalizedLinks.length === 0) return new Map();
  const docs = await store
    .collection<PostDoc>(POSTS)
    .find({ teamId, normalizedLink: { $in: normalizedLinks } });
  return new Map(docs.map((d) => [d.normalizedLink, withoutMeta(d)]));
}

export async function findPostsByIds(store: ReadStore, postIds: string[]): Promise<Map<string, PostDoc>> {
  if (postIds.length === 0) return new Map();
  const docs = await store.collection<PostDoc>(POSTS).find({ _id: { $in: postIds } });
  return new Map(docs.map((d) => [d._id, withoutMeta(d)]));
}

/** The team's activity feed, newest first. */
export async function readActivity(store: ReadStore, teamId: string, limit = 50): Promise<ActivityDoc[]> {
  const docs = await store
    .collection<ActivityDoc>(ACTIVITY)
    .find({ teamId }, { sort: { at: -1, _id: -1 }, limit });
  return docs.map((d) => withoutMeta(d));
}
