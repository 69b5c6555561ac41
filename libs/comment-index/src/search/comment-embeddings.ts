import { DuplicateKeyError, type Doc, type ReadStore } from '@analyst/platform';
import {
  COMMENT_CHUNKS,
  chunkDocId,
  fetchedChunkIds,
  type CommentChunkDoc,
} from '../read-models/comment-chunks.projector';
import {
  binaryBytes,
  HIDDEN,
  packStrings,
  STRINGS_PER_COMMENT,
  unpackStrings,
} from '../read-models/packed-columns';
import { quantizeAll } from './quantized-vectors';
import type { EncoderSource, SentenceEncoder } from './sentence-encoder.port';

export const COMMENT_EMBEDDINGS = 'comment_embeddings';

/**
 * The sentence vectors of one fetched chunk's visible comments (`comment_embeddings`), named after
 * the chunk's own document and the model, so a chunk is embedded once per model and a vector of
 * another model is never read. `claimed` while a replica embeds it at ingest: a search that meets
 * a claim computes the vectors itself rather than wait (the claimer may be gone).
 */
export interface CommentEmbeddingsDoc extends Doc {
  teamId: string;
  postId: string;
  model: string;
  dims: number;
  state: 'claimed' | 'ready';
  at: string;
  count: number;
  /** UTF-8 of the embedded comments' ids, with uint32 ends (as in the comment chunks). */
  text?: Uint8Array;
  textEnds?: Uint8Array;
  /** int8 components, `count` × `dims` (quantized-vectors.ts). */
  vectors?: Uint8Array;
}

export const embeddingDocId = (chunkId: string, model: string): string => `${chunkId}@${model}`;

/** A comment to embed: only visible comments with a body are searched, so only they are embedded. */
export interface CommentText {
  id: string;
  body: string;
}

/** Where a version's comments are: its post and fetch (PostFetched revision) with its chunk count. */
export interface VersionChunks {
  postId: string;
  fetch: number;
  chunks: number;
}

/** The vectors of a search's comments, by post and comment id. */
export class EmbeddedComments {
  private readonly byPost = new Map<string, Map<string, number>>();
  private readonly blocks: Int8Array[] = [];

  constructor(
    readonly model: string,
    readonly dims: number,
  ) {}

  add(postId: string, ids: readonly string[], vectors: Int8Array): void {
    let post = this.byPost.get(postId);
    if (!post) this.byPost.set(postId, (post = new Map()));
    const block = this.blocks.push(vectors) - 1;
    // Block and position packed in one number: 2^20 comments per block is far above a chunk's size.
    ids.forEach((id, i) => post.set(id, block * 2 ** 20 + i));
  }

  /** The comment's vector as a view on its stored block, or null when it was not embedded. */
  vector(postId: string, commentId: string): Int8Array | null {
    const at = this.byPost.get(postId)?.get(commentId);
    if (at === undefined) return null;
    const block = this.blocks[Math.floor(at / 2 ** 20)];
    const i = at % 2 ** 20;
    return block.subarray(i * this.dims, (i + 1) * this.dims);
  }
}

/** Chunk ids per store read: a few hundred keeps a query small on every store. */
const IDS_PER_READ = 200;
/**
 * Chunks embedded at once: the encoder spreads one call's texts over its threads, and a second
 * chunk keeps them busy while the first is stored.
 */
const CHUNKS_AT_ONCE = 2;

/**
 * The comment embeddings read model: read by the AI search, written at ingest (`embedAtIngest`)
 * and by the first search that needs vectors nobody stored (`vectorsFor`), from the comment chunks
 * the log projects. Dropping the collection loses nothing: every vector is computed again from
 * the same comments by the same model.
 */
export class CommentEmbeddings {
  constructor(
    private readonly store: ReadStore,
    private readonly encoder: EncoderSource,
  ) {}

  private get docs() {
    return this.store.collection<CommentEmbeddingsDoc>(COMMENT_EMBEDDINGS);
  }

  /**
   * The vectors of these versions' visible comments: stored ones read, the rest embedded from the
   * comment chunks and stored for the next search. Null when this process has no encoder.
   */
  async vectorsFor(
    teamId: string,
    versions: readonly VersionChunks[],
    onProgress?: (done: number, toEmbed: number) => void,
  ): Promise<EmbeddedComments | null> {
    const encoder = await this.encoder();
    if (!encoder) return null;
    const out = new EmbeddedComments(encoder.model, encoder.dims);
    const chunks = versions.flatMap((v) =>
      fetchedChunkIds(v.postId, v.fetch, v.chunks).map((chunkId) => ({ postId: v.postId, chunkId })),
    );
    const missing: string[] = [];
    for (let from = 0; from < chunks.length; from += IDS_PER_READ) {
      const part = chunks.slice(from, from + IDS_PER_READ);
      const found = await this.docs.find({
        teamId,
        _id: { $in: part.map((c) => embeddingDocId(c.chunkId, encoder.model)) },
      });
      const ready = new Map(found.filter((d) => d.state === 'ready').map((d) => [d._id, d]));
      for (const c of part) {
        const doc = ready.get(embeddingDocId(c.chunkId, encoder.model));
        if (doc) out.add(c.postId, idsOf(doc), int8sOf(doc));
        else missing.push(c.chunkId);
      }
    }
    if (missing.length > 0) await this.embedMissing(teamId, encoder, missing, out, onProgress);
    return out;
  }

  /**
   * Embeds a chunk as its `CommentsFetched` is projected, unless another replica has claimed or
   * stored it (the claim is an insert the store refuses twice). Returns whether this call embedded it.
   */
  async embedAtIngest(
    teamId: string,
    postId: string,
    revision: number,
    comments: readonly CommentText[],
  ): Promise<boolean> {
    const encoder = await this.encoder();
    if (!encoder) return false;
    const chunkId = chunkDocId(postId, revision);
    const claim: CommentEmbeddingsDoc = {
      _id: embeddingDocId(chunkId, encoder.model),
      teamId,
      postId,
      model: encoder.model,
      dims: encoder.dims,
      state: 'claimed',
      at: new Date().toISOString(),
      count: 0,
    };
    try {
      await this.docs.insertOne(claim, { idOnly: true });
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
    await this.embedAndStore(teamId, postId, chunkId, encoder, comments);
    return true;
  }

  private async embedMissing(
    teamId: string,
    encoder: SentenceEncoder,
    chunkIds: readonly string[],
    out: EmbeddedComments,
    onProgress?: (done: number, toEmbed: number) => void,
  ): Promise<void> {
    const pending: { postId: string; chunkId: string; comments: CommentText[] }[] = [];
    for (let from = 0; from < chunkIds.length; from += IDS_PER_READ) {
      const docs = await this.store
        .collection<CommentChunkDoc>(COMMENT_CHUNKS)
        .find({ teamId, _id: { $in: chunkIds.slice(from, from + IDS_PER_READ) } });
      for (const doc of docs)
        pending.push({ postId: doc.postId, chunkId: doc._id, comments: visibleComments(doc) });
    }
    const toEmbed = pending.reduce((n, p) => n + p.comments.length, 0);
    let done = 0;
    onProgress?.(0, toEmbed);
    let next = 0;
    const worker = async () => {
      for (let p = pending[next++]; p; p = pending[next++]) {
        const vectors = await this.embedAndStore(teamId, p.postId, p.chunkId, encoder, p.comments);
        out.add(
          p.postId,
          p.comments.map((c) => c.id),
          vectors,
        );
        onProgress?.((done += p.comments.length), toEmbed);
      }
    };
    await Promise.all(Array.from({ length: CHUNKS_AT_ONCE }, worker));
  }

  /** Embeds the comments and stores the chunk's document as ready; returns the vectors. */
  private async embedAndStore(
    teamId: string,
    postId: string,
    chunkId: string,
    encoder: SentenceEncoder,
    comments: readonly CommentText[],
  ): Promise<Int8Array> {
    const floats = await encoder.embed(comments.map((c) => c.body));
    const vectors = quantizeAll(floats, encoder.dims);
    const ids = packStrings(comments.map((c) => c.id));
    const doc: CommentEmbeddingsDoc = {
      _id: embeddingDocId(chunkId, encoder.model),
      teamId,
      postId,
      model: encoder.model,
      dims: encoder.dims,
      state: 'ready',
      at: new Date().toISOString(),
      count: comments.length,
      ...ids,
      vectors: new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength),
    };
    await this.docs.replaceOne({ _id: doc._id }, doc, { upsert: true });
    return vectors;
  }
}

/** The visible comments with a body of a stored chunk (what a search reads). */
export function visibleComments(doc: CommentChunkDoc): CommentText[] {
  const strings = unpackStrings(doc.text, doc.textEnds);
  const flags = binaryBytes(doc.flags);
  const out: CommentText[] = [];
  for (let i = 0; i < doc.count; i++) {
    const body = strings[i * STRINGS_PER_COMMENT + 3];
    if ((flags[i] & HIDDEN) === 0 && body.trim() !== '')
      out.push({ id: strings[i * STRINGS_PER_COMMENT], body });
  }
  return out;
}

const idsOf = (doc: CommentEmbeddingsDoc): string[] =>
  doc.count === 0 ? [] : unpackStrings(doc.text, doc.textEnds);

function int8sOf(doc: CommentEmbeddingsDoc): Int8Array {
  if (doc.count === 0) return new Int8Array(0);
  const bytes = binaryBytes(doc.vectors);
  return new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
