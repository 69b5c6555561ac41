import type { CommentsFetched, CommentsScored } from '@analyst/contracts';
import type { Doc, Projector, Recorded } from '@analyst/platform';
import { packFetched, packScored, type PackedFetched, type PackedScored } from './packed-columns';

export const COMMENT_CHUNKS = 'comment_chunks';
export const COMMENT_SCORES = 'comment_scores';

/**
 * Where a comment chunk document is found: by team (the shard key's first field), post, data version
 * and, for fetched chunks, the fetch they came from. Every query of the loader names all of these.
 */
const CHUNK_INDEXES = [
  { keys: { teamId: 1 as const, postId: 1 as const, dataVersion: 1 as const }, name: 'team_post_version' },
];

/** The document of one chunk event: the post stream's revision names it, so it is written once. */
export const chunkDocId = (postId: string, revision: number): string => `${postId}:${revision}`;

/** The documents of a fetch's chunks: appended right after its `PostFetched` (revision `fetch`). */
export const fetchedChunkIds = (postId: string, fetch: number, chunks: number): string[] =>
  Array.from({ length: chunks }, (_, c) => chunkDocId(postId, fetch + 1 + c));

/** The documents of a version's score chunks, from the revision of the first and their count. */
export const scoreChunkIds = (postId: string, scores: { first: number; chunks: number }): string[] =>
  Array.from({ length: scores.chunks }, (_, c) => chunkDocId(postId, scores.first + c));

/** Where a chunk document belongs: its team, post, data version and place among the version's chunks. */
interface ChunkPlace extends Doc {
  teamId: string;
  postId: string;
  dataVersion: number;
  chunk: number;
}

/** One `CommentsFetched` event of a post's data version, packed. */
export interface CommentChunkDoc extends ChunkPlace, PackedFetched {
  /**
   * Revision of the `PostFetched` this chunk was appended with (its own revision less the chunk
   * number, less one: a fetch appends `PostFetched` and its chunks together). A version fetched
   * again after a failed attempt has chunks of two fetches; the catalog names the one that counts.
   */
  fetch: number;
}

/** One `CommentsScored` event of a post's data version, packed. */
export interface CommentScoresDoc extends ChunkPlace, PackedScored {}

/**
 * The team of a post event: its metadata (every post command runs with its team). A projector must
 * not throw (it would stop every later event); a chunk without a team is found by no query, and the
 * loader's count check reports the version as incomplete.
 */
const teamOf = (event: Recorded<CommentsFetched | CommentsScored>): string => event.metadata.teamId ?? '';

/** The place of a chunk event's document, both kinds alike. */
const placeOf = (event: Recorded<CommentsFetched | CommentsScored>, id: string): ChunkPlace => ({
  _id: id,
  teamId: teamOf(event),
  postId: event.data.postId,
  dataVersion: event.data.dataVersion,
  chunk: event.data.chunk,
});

/** `comment_chunks`: the fetched comments of every post version, a document per chunk event. */
export const commentChunksProjector: Projector<CommentChunkDoc, CommentsFetched> = {
  name: 'comment-chunks',
  collection: COMMENT_CHUNKS,
  eventTypes: ['CommentsFetched'],
  indexes: CHUNK_INDEXES,
  writeOnce: true,
  documentIds: (event) => [chunkDocId(event.data.postId, event.revision)],
  evolve: (_doc, event, id) => ({
    ...placeOf(event, id),
    fetch: event.revision - event.data.chunk - 1,
    ...packFetched(event.data.comments),
  }),
};

/** `comment_scores`: the scores of every scored post version, a document per chunk event. */
export const commentScoresProjector: Projector<CommentScoresDoc, CommentsScored> = {
  name: 'comment-scores',
  collection: COMMENT_SCORES,
  eventTypes: ['CommentsScored'],
  indexes: CHUNK_INDEXES,
  writeOnce: true,
  documentIds: (event) => [chunkDocId(event.data.postId, event.revision)],
  evolve: (_doc, event, id) => ({
    ...placeOf(event, id),
    ...packScored(event.data.comments),
  }),
};
