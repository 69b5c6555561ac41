import type { Projector, RecordedEvent } from '@analyst/platform';
import type { CommentsFetched, CommentsScored } from '@analyst/domain-content';
import { COMMENTS } from '../ingest.tokens';
import type { CommentDoc } from './comment-doc';

/** A chunk's comments by id, built once per event rather than searched once per document. */
const byId = new WeakMap<object, Map<string, unknown>>();
function lookup<T>(data: object, items: readonly T[], key: (item: T) => string, id: string): T {
  let index = byId.get(data);
  if (!index) {
    index = new Map(items.map((item) => [key(item), item]));
    byId.set(data, index);
  }
  return index.get(id) as T;
}

export const commentDocId = (postId: string, commentId: string): string => `${postId}:${commentId}`;

export const commentsProjector: Projector<CommentDoc> = {
  name: 'ingest-comments',
  collection: COMMENTS,
  eventTypes: ['CommentsFetched', 'CommentsScored'],
  indexes: [{ keys: { postId: 1, dataVersion: 1 } }, { keys: { teamId: 1, postId: 1 } }],
  documentIds(event) {
    const data = event.data as CommentsFetched['data'] | CommentsScored['data'];
    return event.type === 'CommentsFetched'
      ? (data as CommentsFetched['data']).comments.map((c) => commentDocId(data.postId, c.id))
      : (data as CommentsScored['data']).comments.map((c) => commentDocId(data.postId, c.commentId));
  },
  evolve(doc, event: RecordedEvent, id) {
    if (event.type === 'CommentsFetched') {
      const data = event.data as CommentsFetched['data'];
      if (doc && doc.dataVersion > data.dataVersion) return doc;
      const c = lookup(data, data.comments, (x) => commentDocId(data.postId, x.id), id);
      return {
        _id: id,
        teamId: event.metadata.teamId ?? '',
        postId: data.postId,
        dataVersion: data.dataVersion,
        commentId: c.id,
        parentId: c.parentId,
        isReply: c.parentId !== null,
        authorUsername: c.authorUsername,
        authorIsCreator: c.authorIsCreator,
        body: c.body,
        likes: c.likes,
        postedAt: c.postedAt,
        hidden: c.hidden,
        scores: null,
        topicIndex: null,
        messageIndex: null,
        scorer: null,
      };
    }
    const data = event.data as CommentsScored['data'];
    if (!doc || doc.dataVersion !== data.dataVersion) return doc as CommentDoc;
    const s = lookup(data, data.comments, (x) => commentDocId(data.postId, x.commentId), id);
    return { ...doc, scores: s.scores, topicIndex: s.topicIndex, messageIndex: s.messageIndex, scorer: s.scorer };
  },
};
