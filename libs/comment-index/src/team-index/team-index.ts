import type { CreatorMessage, CreatorTopic, FetchedComment, ScoredComment } from '@analyst/contracts';
import type { CatalogPostFields, CollectionEntry } from './catalog-entries';
import {
  appendRow,
  compactColumns,
  createColumns,
  ensureCapacity,
  hasMention,
  hasQuestionMark,
  tokenize,
  Vocabulary,
  DEFAULT_ROLLUP_SETTINGS,
  emotionCode,
  NO_EMOTION,
  type CommentColumns,
  type RollupSettings,
} from '@analyst/domain-analysis';
import {
  asciiFnv1a32,
  binaryBytes,
  bufferOf,
  bytesFnv1a32,
  BytesTable,
  EMOJI_TERM,
  HAS_EMOJI,
  HAS_MENTION,
  HAS_QUESTION,
  HIDDEN,
  IS_CREATOR,
  IS_REPLY,
  ScratchViews,
  STRINGS_PER_COMMENT,
  type PackedFetched,
  type PackedScored,
} from '../read-models/packed-columns';
import { authorName, fnv1a32, RowDetails } from './row-details';
import { VersionIds } from './version-ids';

/** The scored version of a post as the catalog knows it, whether or not its rows are loaded. */
export interface ScoredVersionInfo {
  dataVersion: number;
  topics: CreatorTopic[];
  messages: CreatorMessage[];
  scoredAt: string;
  /** Team settings when the version was scored: the post analysis is materialized with them. */
  settings: RollupSettings;
  /**
   * Where its comments are in the read store: the fetch (PostFetched revision) and its chunk count,
   * and its score chunks (first revision, count) when its `PostScored` recorded them.
   */
  source?: { fetch: number; chunks: number; scores?: { first: number; chunks: number } };
}

/** A scored version whose comments are rows of the team's columns. */
export interface ScoredVersion extends ScoredVersionInfo {
  /** Rows of this version's comments in the team's columns. */
  rows: Uint32Array;
}

interface PendingVersion {
  dataVersion: number;
  rows: number[];
  rowById: Map<string, number>;
}

/** One post as the analysis service knows it: catalog fields plus where its comments sit. */
export interface PostEntry extends CatalogPostFields {
  id: string;
  /** Team-local number, stored in the `postIndex` column of the team's comments. */
  index: number;
  /** The version analyses read (catalog), null until one is scored. */
  version: ScoredVersionInfo | null;
  /** That version with its rows, once they are in the team's columns (see TeamIndex.appendVersion). */
  scored: ScoredVersion | null;
  pending: PendingVersion | null;
}

/** When a team's rows of replaced or abandoned versions are dropped from memory. */
export interface CompactionPolicy {
  /** Compact once at least this many rows are dead and they are at least half of all rows. */
  minDeadRows: number;
}

export const DEFAULT_COMPACTION: CompactionPolicy = { minDeadRows: 100_000 };

/** Called with `remap[oldRow]` = new row (or -1) after a compaction, for structures kept by row number. */
export type CompactionListener = (remap: Int32Array, rows: number) => void;

/** Generations are unique in the process, so a team loaded again never reuses an evicted one's. */
let nextGeneration = 1;

/** Rough bytes of a JS string held in an array: its header and pointer, plus a byte per code unit. */
const STRING_HEADER_BYTES = 24;
const stringBytes = (s: string | null | undefined): number => STRING_HEADER_BYTES + (s?.length ?? 0);

const EMOJI_CODE = EMOJI_TERM.charCodeAt(0);

/** An author met in stored chunks: the interned id, the name as shown, the username's length. */
interface AuthorEntry {
  id: number;
  name: string;
  length: number;
}

/** 1 when the flag is set in a stored comment's flags, else 0. */
const bit = (flags: number, flag: number): number => ((flags & flag) === 0 ? 0 : 1);

/** Scratch arrays of appendVersion, kept between versions (it runs to the end once started). */
const versionIds = new VersionIds();
/** Slots: a fetched chunk's text ends, likes, postedAt, tokens, token ends, term ends; a score chunk's text ends, scores, refs. */
const views = new ScratchViews();
let termScratch = new Uint32Array(1024);
const termScratchFor = (terms: number): Uint32Array =>
  terms <= termScratch.length
    ? termScratch
    : (termScratch = new Uint32Array(Math.max(terms, 2 * termScratch.length)));

/**
 * Comments of one team as columns, plus the team's posts, collections and settings.
 *
 * A refresh appends the new version's comments as new rows; the replaced version's rows (and those
 * of a version abandoned before it was scored) are dead. Once dead rows are at least half of the
 * total and `minDeadRows`, the live rows are copied into fresh columns and every row number held
 * here is remapped, so memory follows the live comments rather than every version ever fetched
 * (a restart replays them all). Code that keeps row numbers across an `await` holds the team
 * (`hold()`), which defers any compaction until it lets go; `generation` changes with each one.
 */
export class TeamIndex {
  columns: CommentColumns = createColumns(1024);
  /** Comment ids by row (the columns hold numbers only). */
  commentIds: string[] = [];
  /** Authors as written, bodies and original timestamps, languages, creator-content links (samples). */
  readonly details = new RowDetails();
  readonly posts: PostEntry[] = [];
  readonly postsById = new Map<string, PostEntry>();
  readonly collections = new Map<string, CollectionEntry>();
  settings: RollupSettings = { ...DEFAULT_ROLLUP_SETTINGS };
  /** The team exists in the log (created, or has posts or collections). */
  known = false;
  /** Changed by every compaction and unique per loaded team: row numbers of another generation mean nothing here. */
  generation = nextGeneration++;
  /** Compactions done so far. */
  compactions = 0;
  /** Bytes of the row strings (ids and authors) held, for the cache's budget; texts are the details'. */
  private rowStringBytes = 0;
  private deadRows = 0;
  private holds = 0;
  private compactionDue = false;
  private readonly listeners: CompactionListener[] = [];
  /** Authors of stored chunks by their UTF-8 bytes as written: each is decoded and interned once. */
  private readonly authorsByBytes = new BytesTable<AuthorEntry>();
  /** Vocabulary ids of stored chunks' terms by their UTF-8 bytes: each is decoded and interned once. */
  private readonly termsByBytes = new BytesTable<number>();

  constructor(
    readonly teamId: string,
    readonly vocab: Vocabulary,
    readonly authors: Map<string, number>,
    private readonly compaction: CompactionPolicy = DEFAULT_COMPACTION,
  ) {}

  /** Rows no post version uses any more (dropped by the next compaction). */
  get deadRowCount(): number {
    return this.deadRows;
  }

  /** Keeps row numbers stable until the returned function is called (once). */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.holds === 0 && this.compactionDue) this.compact();
    };
  }

  onCompaction(listener: CompactionListener): void {
    this.listeners.push(listener);
  }

  /** Drops a post's unfinished version (fetch failed, cancelled): its rows are dead. */
  dropPending(post: PostEntry): void {
    const pending = post.pending;
    post.pending = null;
    if (pending) this.retire(pending.rows.length);
  }

  private retire(rows: number): void {
    this.deadRows += rows;
    const live = this.columns.length - this.deadRows;
    if (this.deadRows < this.compaction.minDeadRows || this.deadRows < live) return;
    if (this.holds > 0) this.compactionDue = true;
    else this.compact();
  }

  /** Copies the live rows (every post's scored and pending version) into fresh columns. */
  compact(): void {
    const keep = new Uint8Array(this.columns.length);
    for (const post of this.posts) {
      for (const r of post.scored?.rows ?? []) keep[r] = 1;
      for (const r of post.pending?.rows ?? []) keep[r] = 1;
    }
    const { columns, remap } = compactColumns(this.columns, keep);
    const commentIds: string[] = new Array(columns.length);
    for (let r = 0; r < remap.length; r++) {
      const j = remap[r];
      if (j >= 0) commentIds[j] = this.commentIds[r];
    }
    this.remapPosts(remap);
    this.columns = columns;
    this.commentIds = commentIds;
    this.details.remap(remap, columns.length);
    let strings = 0;
    for (let r = 0; r < columns.length; r++)
      strings += stringBytes(commentIds[r]) + stringBytes(this.details.authors[r]);
    this.rowStringBytes = strings;
    this.deadRows = 0;
    this.compactionDue = false;
    this.generation = nextGeneration++;
    this.compactions++;
    for (const listener of this.listeners) listener(remap, columns.length);
  }

  /** Moves the posts' scored and pending rows to their numbers after a compaction. */
  private remapPosts(remap: Int32Array): void {
    for (const post of this.posts) {
      if (post.scored) post.scored.rows = post.scored.rows.map((r) => remap[r]);
      const pending = post.pending;
      if (pending) {
        pending.rows = pending.rows.map((r) => remap[r]);
        for (const [id, r] of pending.rowById) pending.rowById.set(id, remap[r]);
      }
    }
  }

  /** What this team holds in memory, roughly: columns, row strings and details with the texts (not the catalog). */
  get rowBytes(): number {
    const c = this.columns;
    let bytes = c.tokenIds.byteLength + c.tokenStart.byteLength;
    for (const key of [
      'sentiment',
      'content',
      'topic',
      'relevance',
      'consensus',
      'likes',
      'isReply',
      'hidden',
      'isCreator',
      'hasQuestion',
      'hasMention',
      'hasEmoji',
      'postIndex',
      'authorId',
      'postedAt',
      'emotion',
    ] as const)
      bytes += c[key].byteLength;
    return bytes + this.details.arrayBytes + this.rowStringBytes;
  }

  /**
   * Makes room for `rows` more rows with `tokens` more tokens in one step, before versions are
   * appended (a load of many posts), instead of growing the columns as each version comes.
   */
  reserve(rows: number, tokens: number): void {
    ensureCapacity(this.columns, rows, tokens);
    this.details.reserve(this.columns.length + rows);
  }

  /**
   * Appends the rows of a post's scored version from its stored chunks (the fetch's chunks in order,
   * and the version's scores): the same rows, in the same order and with the same values, as the
   * log fold builds from the version's events. A comment id seen earlier in the version is skipped
   * (a redelivered chunk), and scores apply to the first row of their comment id. The post's
   * previously loaded version, if any, becomes dead rows.
   */
  appendVersion(
    post: PostEntry,
    info: ScoredVersionInfo,
    fetched: readonly PackedFetched[],
    scored: readonly PackedScored[],
  ): ScoredVersion {
    let count = 0;
    let tokens = 0;
    for (const chunk of fetched) {
      count += chunk.count;
      tokens += binaryBytes(chunk.tokens).byteLength >>> 2;
    }
    this.reserve(count, tokens);
    const version = versionIds.begin(this.columns.length, count, this.commentIds);
    try {
      for (const chunk of fetched) this.appendChunk(post, chunk, version);
      for (const chunk of scored) this.applyScores(chunk, version);
    } finally {
      version.end();
    }
    const rows = new Uint32Array(version.rows);
    for (let k = 0; k < rows.length; k++) rows[k] = version.first + k;
    const replaced = post.scored?.rows.length ?? 0;
    post.scored = { ...info, rows };
    if (replaced > 0) this.retire(replaced);
    return post.scored;
  }

  /** Appends a stored chunk's comments (room reserved) as rows, but those whose id the version has. */
  private appendChunk(post: PostEntry, chunk: PackedFetched, version: VersionIds): void {
    const columns = this.columns;
    const { likes: likesOf, isReply, hidden, isCreator, hasQuestion, hasMention, hasEmoji } = columns;
    const { postIndex, authorId, postedAt: postedAtOf, tokenStart, tokenIds } = columns;
    const text = binaryBytes(chunk.text);
    const buffer = bufferOf(text);
    const textAt = version.addText(text);
    // The chunk's text is kept for its rows' bodies and times once one of its comments is a row.
    let kept = -1;
    const ends = views.uint32s(chunk.textEnds, 0);
    const likes = views.float32s(chunk.likes, 1);
    const flagsOf = binaryBytes(chunk.flags);
    const postedAt = views.uint32s(chunk.postedAt, 2);
    const tokens = views.uint32s(chunk.tokens, 3);
    const tokenEnds = views.uint32s(chunk.tokenEnds, 4);
    const termIds = this.termIds(chunk);
    let tokenAt = columns.tokenCount;
    let r = columns.length;
    let strings = 0;
    for (let i = 0, from = 0; i < chunk.count; from = tokenEnds[i], i++) {
      const at = i * STRINGS_PER_COMMENT;
      const start = at === 0 ? 0 : ends[at - 1];
      const idEnd = ends[at];
      const authorEnd = ends[at + 1];
      const postedAtEnd = ends[at + 2];
      const bodyEnd = ends[at + 3];
      // An ASCII id's bytes are its code units: hashed as they are, decoded byte for byte.
      let hash = asciiFnv1a32(text, start, idEnd);
      const id = buffer.toString(hash < 0 ? 'utf8' : 'latin1', start, idEnd);
      if (hash < 0) hash = fnv1a32(id);
      if (version.find(id, hash) >= 0) continue;
      version.add(r, hash, textAt, start, idEnd);
      const author = this.authorOf(text, idEnd, authorEnd);
      const f = flagsOf[i];
      likesOf[r] = likes[i];
      isReply[r] = bit(f, IS_REPLY);
      hidden[r] = bit(f, HIDDEN);
      isCreator[r] = bit(f, IS_CREATOR);
      hasQuestion[r] = bit(f, HAS_QUESTION);
      hasMention[r] = bit(f, HAS_MENTION);
      hasEmoji[r] = bit(f, HAS_EMOJI);
      postIndex[r] = post.index;
      authorId[r] = author.id;
      postedAtOf[r] = postedAt[i];
      tokenStart[r] = tokenAt;
      for (let t = from; t < tokenEnds[i]; t++) tokenIds[tokenAt++] = termIds[tokens[t]];
      tokenStart[r + 1] = tokenAt;
      if (kept < 0) kept = this.details.texts.addChunk(text);
      this.commentIds[r] = id;
      this.details.fetchedRow(r, author.name, hash);
      this.details.texts.packed(r, kept, authorEnd, postedAtEnd, bodyEnd);
      strings += 2 * STRING_HEADER_BYTES + id.length + author.length;
      r++;
    }
    columns.length = r;
    columns.tokenCount = tokenAt;
    this.rowStringBytes += strings;
  }

  /**
   * Scores of a stored chunk onto the version's rows. They come in the fetch's order as a rule: the
   * k-th score is the k-th row's when their id bytes are equal; the id is decoded and looked up only
   * where they part (a redelivered chunk, or another order).
   */
  private applyScores(chunk: PackedScored, version: VersionIds): void {
    const columns = this.columns;
    const text = binaryBytes(chunk.text);
    const ends = views.uint32s(chunk.textEnds, 0);
    const scores = views.float64s(chunk.scores, 1);
    const refs = views.int32s(chunk.refs, 2);
    const emotions = chunk.emotions === undefined ? null : binaryBytes(chunk.emotions);
    const n = chunk.count;
    for (let i = 0; i < n; i++) {
      const r = version.rowOfScore(text, i === 0 ? 0 : ends[i - 1], ends[i]);
      if (r < 0) continue;
      columns.sentiment[r] = scores[i];
      columns.content[r] = scores[n + i];
      columns.topic[r] = scores[2 * n + i];
      columns.relevance[r] = scores[3 * n + i];
      columns.consensus[r] = scores[4 * n + i];
      columns.emotion[r] = emotions === null ? NO_EMOTION : emotions[i];
      const language = refs[2 * n + i];
      this.details.scoredRow(
        r,
        Math.max(-1, refs[i]),
        Math.max(-1, refs[n + i]),
        language < 0 ? null : (chunk.languages[language] ?? null),
      );
    }
  }

  /** The author of a stored comment, by the bytes of the username as written. */
  private authorOf(text: Uint8Array, start: number, end: number): AuthorEntry {
    const hash = bytesFnv1a32(text, start, end);
    let author = this.authorsByBytes.get(text, start, end, hash);
    if (author === undefined) {
      const username = bufferOf(text).toString('utf8', start, end);
      const name = authorName(username);
      const key = name.toLowerCase();
      let id = this.authors.get(key);
      if (id === undefined) this.authors.set(key, (id = this.authors.size));
      author = { id, name, length: username.length };
      this.authorsByBytes.set(text, start, end, hash, author);
    }
    return author;
  }

  /** A stored chunk's terms as ids of the team's vocabulary (in a scratch array, until the next call). */
  private termIds(chunk: PackedFetched): Uint32Array {
    if (chunk.termText === undefined) return this.termIdsOf(chunk.terms ?? []);
    const text = binaryBytes(chunk.termText);
    const ends = views.uint32s(chunk.termEnds, 5);
    const ids = termScratchFor(ends.length);
    for (let t = 0, start = 0; t < ends.length; start = ends[t], t++) {
      const end = ends[t];
      const hash = bytesFnv1a32(text, start, end);
      let id = this.termsByBytes.get(text, start, end, hash);
      if (id === undefined) {
        id = this.intern(bufferOf(text).toString('utf8', start, end));
        this.termsByBytes.set(text, start, end, hash, id);
      }
      ids[t] = id;
    }
    return ids;
  }

  /** The terms of a chunk written before they were packed, as ids of the team's vocabulary. */
  private termIdsOf(terms: readonly string[]): Uint32Array {
    const ids = termScratchFor(terms.length);
    for (let t = 0; t < terms.length; t++) ids[t] = this.intern(terms[t]);
    return ids;
  }

  /** A stored term (an emoji's marked with EMOJI_TERM) as an id of the team's vocabulary. */
  private intern(term: string): number {
    return term.charCodeAt(0) === EMOJI_CODE
      ? this.vocab.intern(term.slice(1), 'emoji')
      : this.vocab.intern(term, 'word');
  }

  /** Posts of a collection; a campaign includes its nested groups. */
  collectionTree(collectionId: string): Set<string> {
    const ids = new Set([collectionId]);
    for (let grew = true; grew;) {
      grew = false;
      for (const c of this.collections.values()) {
        if (c.parentId && ids.has(c.parentId) && !ids.has(c.id)) {
          ids.add(c.id);
          grew = true;
        }
      }
    }
    return ids;
  }

  /** Interned author id of a username (lowercase, no leading @); -1 when never seen. */
  authorId(username: string): number {
    return this.authors.get(username.replace(/^@/, '').toLowerCase()) ?? -1;
  }

  addComments(post: PostEntry, dataVersion: number, comments: readonly FetchedComment[]): void {
    if (!post.pending || post.pending.dataVersion !== dataVersion) {
      const abandoned = post.pending;
      post.pending = { dataVersion, rows: [], rowById: new Map() };
      if (abandoned) this.retire(abandoned.rows.length);
    }
    const pending = post.pending;
    for (const c of comments) {
      if (pending.rowById.has(c.id)) continue; // a redelivered chunk
      const tokens = tokenize(c.body);
      const ids = tokens.map((t) => this.vocab.intern(t.text, t.kind));
      const author = c.authorUsername.replace(/^@/, '').toLowerCase();
      let authorId = this.authors.get(author);
      if (authorId === undefined) this.authors.set(author, (authorId = this.authors.size));
      const row = appendRow(this.columns, {
        scores: {},
        likes: c.likes,
        isReply: c.parentId !== null,
        hidden: c.hidden,
        isCreator: c.authorIsCreator,
        hasQuestion: hasQuestionMark(c.body),
        hasMention: hasMention(c.body),
        hasEmoji: tokens.some((t) => t.kind === 'emoji'),
        postIndex: post.index,
        authorId,
        postedAt: Math.max(0, Math.floor(Date.parse(c.postedAt) / 1000) || 0),
        tokens: ids,
      });
      this.commentIds[row] = c.id;
      this.details.fetched(row, c);
      this.rowStringBytes += stringBytes(c.id) + stringBytes(c.authorUsername);
      pending.rows.push(row);
      pending.rowById.set(c.id, row);
    }
  }

  addScores(post: PostEntry, dataVersion: number, comments: readonly ScoredComment[]): void {
    const pending = post.pending;
    if (!pending || pending.dataVersion !== dataVersion) return;
    const nan = (v: number | null | undefined): number => (v === null || v === undefined ? Number.NaN : v);
    for (const c of comments) {
      const row = pending.rowById.get(c.commentId);
      if (row === undefined) continue;
      this.columns.sentiment[row] = nan(c.scores.sentiment);
      this.columns.content[row] = nan(c.scores.content);
      this.columns.topic[row] = nan(c.scores.topic);
      this.columns.relevance[row] = nan(c.scores.relevance);
      this.columns.consensus[row] = nan(c.scores.consensus);
      this.columns.emotion[row] = emotionCode(c.emotion);
      this.details.scored(row, c);
    }
  }

  /** The pending version becomes the one analyses read; the replaced version's rows are dead. */
  completeVersion(
    post: PostEntry,
    dataVersion: number,
    topics: CreatorTopic[],
    messages: CreatorMessage[],
    at: string,
  ): ScoredVersion {
    const pending =
      post.pending && post.pending.dataVersion === dataVersion ? post.pending : { rows: [] as number[] };
    const replaced =
      (post.scored?.rows.length ?? 0) +
      (post.pending && post.pending !== pending ? post.pending.rows.length : 0);
    post.version = { dataVersion, topics, messages, scoredAt: at, settings: { ...this.settings } };
    post.scored = { ...post.version, rows: Uint32Array.from(pending.rows) };
    post.pending = null;
    this.retire(replaced);
    return post.scored;
  }
}
