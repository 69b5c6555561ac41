import type { Projector, RecordedEvent } from '@analyst/platform';
import type { CommentsFetched, CommentsScored } from '@analyst/domain-content';
import { COMMENTS } from '../ingest.tokens';
import type { CommentChunkDoc } from './comment-doc';

export const commentChunkId = (postId: string, dataVersion: number, kind: 'fetched' | 'scored', chunk: number): string =>
  `${postId}:${dataVersion}:${kind === 'fetched' ? 'f' : 's'}:${String(chunk).padStart(5, '0')}`;

/** Comment chunks as stored: the event's own comments, one document per event. */
export const commentsProjector: Projector<CommentChunkDoc> = {
  name: 'ingest-comments',
  collection: COMMENTS,
  eventTypes: ['CommentsFetched', 'CommentsScored'],
  indexes: [{ keys: { postId: 1, dataVersion: 1 } }],
  documentIds(event) {
    const data = event.data as CommentsFetched['data'] | CommentsScored['data'];
    return [commentChunkId(data.postId, data.dataVersion, event.type === 'CommentsFetched' ? 'fetched' : 'scored', data.chunk)];
  },
  evolve(_doc, event: RecordedEvent, id) {
    const base = { _id: id, teamId: event.metadata.teamId ?? '' };
    if (event.type === 'CommentsFetched') {
      const data = event.data as CommentsFetched['data'];
      return { ...base, postId: data.postId, dataVersion: data.dataVersion, chunk: data.chunk, kind: 'fetched', fetched: data.comments };
    }
    const data = event.data as CommentsScored['data'];
    return {
      ...base,
      postId: data.postId,
      dataVersion: data.dataVersion,
      chunk: data.chunk,
      kind: 'scored',
      scored: data.comments,
      scorer: data.scorer,
    };
  },
};
