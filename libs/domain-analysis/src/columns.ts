import { EMOTIONS, type Dimension, type Emotion } from '@analyst/contracts';

/**
 * Comment scores as columns: one typed array per field, one row per comment. Rollups scan a few
 * arrays instead of chasing 100k objects, and the same layout feeds the in-memory index.
 * Unscored dimensions are NaN. Scores are float64 on purpose: a float32 copy of 5.4999 would read
 * 5.5 and land in another bucket than the stored record a comment sample buckets.
 */
export interface CommentColumns {
  /** Rows in use; the arrays may be longer (spare capacity). */
  length: number;
  sentiment: Float64Array;
  content: Float64Array;
  topic: Float64Array;
  relevance: Float64Array;
  consensus: Float64Array;
  likes: Float32Array;
  isReply: Uint8Array;
  hidden: Uint8Array;
  isCreator: Uint8Array;
  /** Body has a `?`, an `@mention`, an emoji (computed once when the comment is indexed). */
  hasQuestion: Uint8Array;
  hasMention: Uint8Array;
  hasEmoji: Uint8Array;
  /** Index of the comment's post in the caller's post table. */
  postIndex: Int32Array;
  /** Interned author (lowercase username) id. */
  authorId: Int32Array;
  /** Seconds since the epoch. */
  postedAt: Uint32Array;
  /** The comment's emotion as an index into EMOTIONS; NO_EMOTION when it has none (see emotionCode). */
  emotion: Uint8Array;
  /** Token ids of the body (see `Vocabulary`), CSR: row r owns tokenIds[tokenStart[r] .. tokenStart[r+1]). */
  tokenStart: Uint32Array;
  tokenIds: Uint32Array;
  tokenCount: number;
}

export const SCORE_COLUMNS: readonly Dimension[] = [
  'sentiment',
  'content',
  'topic',
  'relevance',
  'consensus',
];

/** The emotion column's value of a comment without an emotion (not read as English, or scored before emotions). */
export const NO_EMOTION = 255;

/** A comment's emotion as the emotion column holds it: its index in EMOTIONS, or NO_EMOTION. */
export function emotionCode(emotion: Emotion | null | undefined): number {
  const at = emotion ? EMOTIONS.indexOf(emotion) : -1;
  return at < 0 ? NO_EMOTION : at;
}

/** The emotion of an emotion column value; null for NO_EMOTION (or any value EMOTIONS does not have). */
export const emotionOfCode = (code: number): Emotion | null => EMOTIONS[code] ?? null;

export function createColumns(capacity: number, tokenCapacity = capacity * 8): CommentColumns {
  const cap = Math.max(1, capacity);
  const nan = (): Float64Array => new Float64Array(cap).fill(Number.NaN);
  return {
    length: 0,
    sentiment: nan(),
    content: nan(),
    topic: nan(),
    relevance: nan(),
    consensus: nan(),
    likes: new Float32Array(cap),
    isReply: new Uint8Array(cap),
    hidden: new Uint8Array(cap),
    isCreator: new Uint8Array(cap),
    hasQuestion: new Uint8Array(cap),
    hasMention: new Uint8Array(cap),
    hasEmoji: new Uint8Array(cap),
    postIndex: new Int32Array(cap),
    authorId: new Int32Array(cap),
    postedAt: new Uint32Array(cap),
    emotion: new Uint8Array(cap).fill(NO_EMOTION),
    tokenStart: new Uint32Array(cap + 1),
    tokenIds: new Uint32Array(Math.max(1, tokenCapacity)),
    tokenCount: 0,
  };
}

function grown<T extends Float64Array | Float32Array | Uint8Array | Int32Array | Uint32Array>(
  array: T,
  size: number,
  fill?: number,
): T {
  const next = new (array.constructor as new (n: number) => T)(size);
  if (fill !== undefined) next.fill(fill);
  next.set(array);
  return next;
}

/** Makes room for `rows` more rows and `tokens` more token ids, doubling the arrays when needed. */
export function ensureCapacity(columns: CommentColumns, rows: number, tokens: number): void {
  const needed = columns.length + rows;
  if (needed > columns.likes.length) {
    const size = Math.max(needed, columns.likes.length * 2);
    for (const key of SCORE_COLUMNS) columns[key] = grown(columns[key], size, Number.NaN);
    columns.likes = grown(columns.likes, size);
    columns.isReply = grown(columns.isReply, size);
    columns.hidden = grown(columns.hidden, size);
    columns.isCreator = grown(columns.isCreator, size);
    columns.hasQuestion = grown(columns.hasQuestion, size);
    columns.hasMention = grown(columns.hasMention, size);
    columns.hasEmoji = grown(columns.hasEmoji, size);
    columns.postIndex = grown(columns.postIndex, size);
    columns.authorId = grown(columns.authorId, size);
    columns.postedAt = grown(columns.postedAt, size);
    columns.emotion = grown(columns.emotion, size, NO_EMOTION);
    columns.tokenStart = grown(columns.tokenStart, size + 1);
  }
  const tokensNeeded = columns.tokenCount + tokens;
  if (tokensNeeded > columns.tokenIds.length) {
    columns.tokenIds = grown(columns.tokenIds, Math.max(tokensNeeded, columns.tokenIds.length * 2));
  }
}

/** One comment as a row, for building columns from records (tests, the index). */
export interface CommentRow {
  scores: Partial<Record<Dimension, number | null>>;
  likes?: number;
  isReply?: boolean;
  hidden?: boolean;
  isCreator?: boolean;
  hasQuestion?: boolean;
  hasMention?: boolean;
  hasEmoji?: boolean;
  postIndex?: number;
  authorId?: number;
  /** Seconds since the epoch. */
  postedAt?: number;
  emotion?: Emotion | null;
  tokens?: readonly number[];
}

/** Appends a row and returns its index. */
export function appendRow(columns: CommentColumns, row: CommentRow): number {
  const tokens = row.tokens ?? [];
  ensureCapacity(columns, 1, tokens.length);
  const r = columns.length;
  for (const key of SCORE_COLUMNS) {
    const value = row.scores[key];
    columns[key][r] = value === null || value === undefined ? Number.NaN : value;
  }
  columns.likes[r] = row.likes ?? 0;
  columns.isReply[r] = row.isReply ? 1 : 0;
  columns.hidden[r] = row.hidden ? 1 : 0;
  columns.isCreator[r] = row.isCreator ? 1 : 0;
  columns.hasQuestion[r] = row.hasQuestion ? 1 : 0;
  columns.hasMention[r] = row.hasMention ? 1 : 0;
  columns.hasEmoji[r] = row.hasEmoji ? 1 : 0;
  columns.postIndex[r] = row.postIndex ?? 0;
  columns.authorId[r] = row.authorId ?? -1;
  columns.postedAt[r] = row.postedAt ?? 0;
  columns.emotion[r] = emotionCode(row.emotion);
  columns.tokenStart[r] = columns.tokenCount;
  columns.tokenIds.set(tokens, columns.tokenCount);
  columns.tokenCount += tokens.length;
  columns.tokenStart[r + 1] = columns.tokenCount;
  columns.length = r + 1;
  return r;
}

/** Columns holding exactly these rows (tests and one-off callers). */
export function columnsOf(rows: readonly CommentRow[]): CommentColumns {
  const columns = createColumns(
    rows.length,
    rows.reduce((n, r) => n + (r.tokens?.length ?? 0), 0),
  );
  for (const row of rows) appendRow(columns, row);
  return columns;
}

/** Every row index 0..length-1, for callers that roll up the whole column set. */
export function allRows(columns: CommentColumns): Uint32Array {
  const rows = new Uint32Array(columns.length);
  for (let i = 0; i < rows.length; i++) rows[i] = i;
  return rows;
}

/**
 * Copies the rows marked in `keep` (1 = keep) into fresh columns, in row order, and returns them
 * with `remap[oldRow]` = the new row, or -1 for a dropped row. The source columns are not changed.
 */
export function compactColumns(
  columns: CommentColumns,
  keep: Uint8Array,
): { columns: CommentColumns; remap: Int32Array } {
  const n = columns.length;
  const remap = new Int32Array(n).fill(-1);
  let rows = 0;
  let tokens = 0;
  for (let r = 0; r < n; r++) {
    if (keep[r] !== 1) continue;
    remap[r] = rows++;
    tokens += columns.tokenStart[r + 1] - columns.tokenStart[r];
  }
  // Room to grow by half again before the next doubling.
  const next = createColumns(Math.max(1024, Math.ceil(rows * 1.5)), Math.max(8192, Math.ceil(tokens * 1.5)));
  for (let r = 0; r < n; r++) {
    const j = remap[r];
    if (j < 0) continue;
    for (const key of SCORE_COLUMNS) next[key][j] = columns[key][r];
    next.likes[j] = columns.likes[r];
    next.isReply[j] = columns.isReply[r];
    next.hidden[j] = columns.hidden[r];
    next.isCreator[j] = columns.isCreator[r];
    next.hasQuestion[j] = columns.hasQuestion[r];
    next.hasMention[j] = columns.hasMention[r];
    next.hasEmoji[j] = columns.hasEmoji[r];
    next.postIndex[j] = columns.postIndex[r];
    next.authorId[j] = columns.authorId[r];
    next.postedAt[j] = columns.postedAt[r];
    next.emotion[j] = columns.emotion[r];
    const from = columns.tokenStart[r];
    const to = columns.tokenStart[r + 1];
    next.tokenStart[j] = next.tokenCount;
    next.tokenIds.set(columns.tokenIds.subarray(from, to), next.tokenCount);
    next.tokenCount += to - from;
    next.tokenStart[j + 1] = next.tokenCount;
  }
  next.length = rows;
  return { columns: next, remap };
}
