import type { FetchedComment, ScoredComment } from '@analyst/contracts';
import { emotionCode, hasMention, hasQuestionMark, NO_EMOTION, tokenize } from '@analyst/domain-analysis';

/** Row flags of a fetched comment, one byte per comment. */
export const IS_REPLY = 1;
export const HIDDEN = 2;
export const IS_CREATOR = 4;
export const HAS_QUESTION = 8;
export const HAS_MENTION = 16;
export const HAS_EMOJI = 32;

/** Strings a fetched comment keeps, in this order, four per comment in `text`. */
const STRINGS_PER_COMMENT = 4;
/** The chunk vocabulary marks an emoji term with this prefix (a word never starts with it). */
export const EMOJI_TERM = '\u0000';

/**
 * A chunk of fetched comments as the read store keeps it: the numbers as packed little-endian
 * columns and the strings as one UTF-8 buffer, so a replica decodes a few binary fields per chunk
 * instead of hundreds of BSON values, and the store holds about a third of what JSON would.
 * Tokens are ids into the chunk's own vocabulary (its terms, packed as `termText` and `termEnds`):
 * a reader maps them to its team's by their bytes, decoding only terms its team has not met. A
 * chunk written before the terms were packed holds them as `terms`, a BSON array of strings: the
 * driver decoded each one (150,000 strings for 100 posts of 1,000 comments, most of the decoding of
 * a cold team's chunk documents), and readers still read it.
 */
export interface PackedFetched {
  count: number;
  /** UTF-8 of id, author (as written), postedAt (as given), body per comment. */
  text: Uint8Array;
  /** Uint32 end offset of each string in `text`. */
  textEnds: Uint8Array;
  /** Float32 likes. */
  likes: Uint8Array;
  flags: Uint8Array;
  /** Uint32 seconds since the epoch (0 when unparseable). */
  postedAt: Uint8Array;
  /** UTF-8 of the chunk's terms (an emoji's marked with EMOJI_TERM), as `packStrings` packs them. */
  termText?: Uint8Array;
  /** Uint32 end offset of each term in `termText`. */
  termEnds?: Uint8Array;
  /** The terms of a chunk written before they were packed (then `termText` is absent). */
  terms?: string[];
  /** Uint32 ids into the chunk's terms, every comment's tokens in order. */
  tokens: Uint8Array;
  /** Uint32 end of each comment's tokens in `tokens`. */
  tokenEnds: Uint8Array;
}

/** A chunk of scores: comment ids, the five dimensions (NaN unscored), creator-content links, emotions. */
export interface PackedScored {
  count: number;
  /** UTF-8 of each scored comment's id. */
  text: Uint8Array;
  textEnds: Uint8Array;
  /** Float64 columns, dimension-major: sentiment, content, topic, relevance, consensus. */
  scores: Uint8Array;
  /** Int32 columns: topicIndex, messageIndex, index into `languages` (-1 each when none). */
  refs: Uint8Array;
  languages: string[];
  /**
   * One byte a comment: its emotion's index into EMOTIONS, NO_EMOTION (255) when it has none.
   * Absent when no comment of the chunk has one (every chunk scored before scorer 2.1.0), so the
   * documents of those chunks stay as they were written: every comment reads as no emotion.
   */
  emotions?: Uint8Array;
}

const bytesOf = (view: ArrayBufferView): Uint8Array =>
  new Uint8Array(view.buffer, view.byteOffset, view.byteLength);

export function packStrings(strings: readonly string[]): { text: Uint8Array; textEnds: Uint8Array } {
  const buffers = strings.map((s) => Buffer.from(s, 'utf8'));
  const ends = new Uint32Array(strings.length);
  let at = 0;
  buffers.forEach((b, i) => (ends[i] = at += b.length));
  return { text: new Uint8Array(Buffer.concat(buffers, at)), textEnds: bytesOf(ends) };
}

/** Comments of one `CommentsFetched` event as stored (tokenized once, here, not at every load). */
export function packFetched(comments: readonly FetchedComment[]): PackedFetched {
  const n = comments.length;
  const strings: string[] = [];
  const likes = new Float32Array(n);
  const flags = new Uint8Array(n);
  const postedAt = new Uint32Array(n);
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  const tokens: number[] = [];
  const tokenEnds = new Uint32Array(n);
  comments.forEach((c, i) => {
    strings.push(c.id, c.authorUsername, c.postedAt, c.body);
    likes[i] = c.likes;
    postedAt[i] = Math.max(0, Math.floor(Date.parse(c.postedAt) / 1000) || 0);
    let emoji = false;
    for (const t of tokenize(c.body)) {
      const key = t.kind === 'emoji' ? EMOJI_TERM + t.text : t.text;
      emoji ||= t.kind === 'emoji';
      let id = termIds.get(key);
      if (id === undefined) termIds.set(key, (id = terms.push(key) - 1));
      tokens.push(id);
    }
    tokenEnds[i] = tokens.length;
    flags[i] =
      (c.parentId !== null ? IS_REPLY : 0) |
      (c.hidden ? HIDDEN : 0) |
      (c.authorIsCreator ? IS_CREATOR : 0) |
      (hasQuestionMark(c.body) ? HAS_QUESTION : 0) |
      (hasMention(c.body) ? HAS_MENTION : 0) |
      (emoji ? HAS_EMOJI : 0);
  });
  const { text: termText, textEnds: termEnds } = packStrings(terms);
  return {
    count: n,
    ...packStrings(strings),
    likes: bytesOf(likes),
    flags,
    postedAt: bytesOf(postedAt),
    termText,
    termEnds,
    tokens: bytesOf(Uint32Array.from(tokens)),
    tokenEnds: bytesOf(tokenEnds),
  };
}

const nan = (v: number | null | undefined): number => (v === null || v === undefined ? Number.NaN : v);

/** Scores of one `CommentsScored` event as stored. */
export function packScored(comments: readonly ScoredComment[]): PackedScored {
  const n = comments.length;
  const scores = new Float64Array(5 * n);
  const refs = new Int32Array(3 * n);
  const languages: string[] = [];
  const emotions = new Uint8Array(n).fill(NO_EMOTION);
  let anyEmotion = false;
  comments.forEach((c, i) => {
    emotions[i] = emotionCode(c.emotion);
    anyEmotion ||= emotions[i] !== NO_EMOTION;
    scores[i] = nan(c.scores.sentiment);
    scores[n + i] = nan(c.scores.content);
    scores[2 * n + i] = nan(c.scores.topic);
    scores[3 * n + i] = nan(c.scores.relevance);
    scores[4 * n + i] = nan(c.scores.consensus);
    refs[i] = c.topicIndex ?? -1;
    refs[n + i] = c.messageIndex ?? -1;
    let language = -1;
    if (c.language) {
      language = languages.indexOf(c.language);
      if (language < 0) language = languages.push(c.language) - 1;
    }
    refs[2 * n + i] = language;
  });
  return {
    count: n,
    ...packStrings(comments.map((c) => c.commentId)),
    scores: bytesOf(scores),
    refs: bytesOf(refs),
    languages,
    ...(anyEmotion ? { emotions } : {}),
  };
}

/**
 * The bytes of a binary field as a store hands it back: a Uint8Array or Buffer (in memory), or the
 * driver's `Binary` (MongoDB), whose `buffer` holds them.
 */
export function binaryBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  const inner = (value as { buffer?: unknown } | null)?.buffer;
  if (inner instanceof Uint8Array) return inner;
  throw new Error('a packed comment column is not binary');
}

/** A typed view on stored bytes; copied first when the bytes do not sit at an aligned offset. */
function view<T>(
  value: unknown,
  Type: { new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number },
): T {
  let bytes = binaryBytes(value);
  // A copy (not Buffer#slice, which is a view on the same memory) starts at offset 0 of its own buffer.
  if (bytes.byteOffset % Type.BYTES_PER_ELEMENT !== 0) bytes = new Uint8Array(bytes);
  return new Type(bytes.buffer, bytes.byteOffset, bytes.byteLength / Type.BYTES_PER_ELEMENT);
}

/**
 * Typed views on stored bytes for a reader done with each view before it asks for the same slot
 * again: bytes at an unaligned offset (a Binary inside the MongoDB driver's answer) are copied into
 * a buffer kept per slot, rather than into a new one each time (appending a version reads eight
 * columns per chunk, thousands of chunks for a large team).
 */
export class ScratchViews {
  private readonly buffers: ArrayBuffer[] = [];

  float64s = (v: unknown, slot: number): Float64Array => this.view(v, Float64Array, slot);
  float32s = (v: unknown, slot: number): Float32Array => this.view(v, Float32Array, slot);
  uint32s = (v: unknown, slot: number): Uint32Array => this.view(v, Uint32Array, slot);
  int32s = (v: unknown, slot: number): Int32Array => this.view(v, Int32Array, slot);

  private view<T>(
    value: unknown,
    Type: { new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number },
    slot: number,
  ): T {
    const bytes = binaryBytes(value);
    const length = Math.floor(bytes.byteLength / Type.BYTES_PER_ELEMENT);
    if (bytes.byteOffset % Type.BYTES_PER_ELEMENT === 0)
      return new Type(bytes.buffer, bytes.byteOffset, length);
    let buffer = this.buffers[slot];
    if (buffer === undefined || buffer.byteLength < bytes.byteLength)
      buffer = this.buffers[slot] = new ArrayBuffer(
        Math.max(1024, bytes.byteLength, 2 * (buffer?.byteLength ?? 0)),
      );
    new Uint8Array(buffer, 0, bytes.byteLength).set(bytes);
    return new Type(buffer, 0, length);
  }
}

export const float64s = (v: unknown): Float64Array => view(v, Float64Array);
export const float32s = (v: unknown): Float32Array => view(v, Float32Array);
export const uint32s = (v: unknown): Uint32Array => view(v, Uint32Array);
export const int32s = (v: unknown): Int32Array => view(v, Int32Array);

/** The bytes as a Buffer without copying them (for `toString` on a range). */
export function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Whether two byte ranges hold the same bytes (so the strings packed there are equal). */
export function sameBytes(
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart: number,
): boolean {
  for (let i = aStart, j = bStart; i < aEnd; i++, j++) if (a[i] !== b[j]) return false;
  return true;
}

/**
 * 32-bit FNV-1a of the UTF-8 bytes of a range, or -1 when one of them is not ASCII. For ASCII the
 * bytes are the string's UTF-16 code units, so the hash is `fnv1a32` of the string packed there.
 */
export function asciiFnv1a32(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b > 0x7f) return -1;
    h = Math.imul(h ^ b, 0x01000193);
  }
  return h >>> 0;
}

/** 32-bit FNV-1a of the bytes of a range (a hash for `BytesTable`). */
export function bytesFnv1a32(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

/**
 * Values keyed by the UTF-8 bytes of a string, found without decoding it: the bytes are hashed and
 * compared with a copy kept of each key's bytes. For values derived from a string that repeats
 * across many packed comments (an author), so each is decoded and derived once.
 */
export class BytesTable<V> {
  private slots = new Int32Array(1024).fill(-1);
  private hashes = new Uint32Array(512);
  private starts = new Uint32Array(513);
  private keyBytes = new Uint8Array(16 * 1024);
  private readonly values: V[] = [];

  get size(): number {
    return this.values.length;
  }

  /** The value for the bytes `bytes[start, end)` with hash `hash`, or undefined. */
  get(bytes: Uint8Array, start: number, end: number, hash: number): V | undefined {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot];
      if (entry < 0) return undefined;
      if (this.hashes[entry] !== hash) continue;
      const at = this.starts[entry];
      if (this.starts[entry + 1] - at === length && sameBytes(bytes, start, end, this.keyBytes, at))
        return this.values[entry];
    }
  }

  /** Keeps `value` for these bytes (not in the table yet). */
  set(bytes: Uint8Array, start: number, end: number, hash: number, value: V): void {
    const entry = this.values.length;
    if (entry + 1 >= this.hashes.length) {
      this.hashes = grownTo(this.hashes, this.hashes.length * 2);
      this.starts = grownTo(this.starts, this.hashes.length + 1);
    }
    const at = this.starts[entry];
    if (at + end - start > this.keyBytes.length)
      this.keyBytes = grownTo(this.keyBytes, Math.max(at + end - start, this.keyBytes.length * 2));
    this.keyBytes.set(bytes.subarray(start, end), at);
    this.starts[entry + 1] = at + end - start;
    this.hashes[entry] = hash;
    this.values.push(value);
    if (2 * this.values.length > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(entry);
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[entry] & mask;
    while (this.slots[slot] >= 0) slot = (slot + 1) & mask;
    this.slots[slot] = entry;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size).fill(-1);
    for (let entry = 0; entry < this.values.length; entry++) this.place(entry);
  }
}

function grownTo<T extends Uint8Array | Uint32Array>(array: T, size: number): T {
  const next = new (array.constructor as new (n: number) => T)(size);
  next.set(array);
  return next;
}

/** The strings packed by `packStrings`, decoded. */
export function unpackStrings(text: unknown, textEnds: unknown): string[] {
  const bytes = binaryBytes(text);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ends = uint32s(textEnds);
  const out = new Array<string>(ends.length);
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    out[i] = buffer.toString('utf8', start, ends[i]);
    start = ends[i];
  }
  return out;
}

export { STRINGS_PER_COMMENT };
