import type { FetchedComment, ScoredComment } from '@analyst/contracts';
import { RowTexts } from './row-texts';

/**
 * What a sample row needs beyond the numeric columns, by the same row numbers: the author as
 * written, the body and original `postedAt` (see RowTexts), the creator topic and message a comment
 * engages, its language and a hash of the comment id for the seeded order.
 */
export class RowDetails {
  authors: string[] = [];
  readonly texts = new RowTexts();
  /** The scorer's language of each comment (null: undetermined or scored before languages were). */
  languages: (string | null)[] = [];
  topicIndex = new Int32Array(1024).fill(-1);
  messageIndex = new Int32Array(1024).fill(-1);
  idHash = new Uint32Array(1024);

  /** Bytes of the typed arrays and the rows' texts (the authors are counted by the team that owns them). */
  get arrayBytes(): number {
    return (
      this.topicIndex.byteLength + this.messageIndex.byteLength + this.idHash.byteLength + this.texts.bytes
    );
  }

  /** Makes room for rows up to `rows` - 1 at once (a loaded version's), as the columns grow. */
  reserve(rows: number): void {
    if (rows > this.idHash.length) this.ensure(rows - 1);
    this.texts.reserve(rows);
  }

  /** The comment's body (undefined for a row without one). */
  body(row: number): string | undefined {
    return this.texts.body(row);
  }

  /** The comment's `postedAt` as the provider gave it. */
  postedAtOf(row: number): string | undefined {
    return this.texts.postedAt(row);
  }

  private ensure(row: number): void {
    if (row < this.idHash.length) return;
    const size = Math.max(row + 1, this.idHash.length * 2);
    const grow = <T extends Int32Array | Uint32Array>(a: T, fill?: number): T => {
      const next = new (a.constructor as new (n: number) => T)(size);
      if (fill !== undefined) next.fill(fill);
      next.set(a);
      return next;
    };
    this.topicIndex = grow(this.topicIndex, -1);
    this.messageIndex = grow(this.messageIndex, -1);
    this.idHash = grow(this.idHash);
  }

  fetched(row: number, comment: Pick<FetchedComment, 'id' | 'authorUsername' | 'postedAt' | 'body'>): void {
    this.fetchedRow(row, authorName(comment.authorUsername), fnv1a32(comment.id));
    this.texts.strings(row, comment.postedAt, comment.body);
  }

  /**
   * A fetched comment's details but its texts: its author as shown (`authorName`) and `fnv1a32` of
   * its id. A loaded row's texts are placed with `texts.packed`.
   */
  fetchedRow(row: number, author: string, idHash: number): void {
    this.ensure(row);
    this.authors[row] = author;
    this.idHash[row] = idHash;
  }

  scored(row: number, comment: Pick<ScoredComment, 'topicIndex' | 'messageIndex' | 'language'>): void {
    this.scoredRow(row, comment.topicIndex ?? -1, comment.messageIndex ?? -1, comment.language ?? null);
  }

  /** A scored comment's creator-content links (-1: none) and language. */
  scoredRow(row: number, topicIndex: number, messageIndex: number, language: string | null): void {
    this.ensure(row);
    this.topicIndex[row] = topicIndex;
    this.messageIndex[row] = messageIndex;
    this.languages[row] = language;
  }

  /** Moves every row to its number after a compaction of the team's columns (see TeamIndex.compact). */
  remap(remap: Int32Array, rows: number): void {
    const size = Math.max(1024, rows);
    const topicIndex = new Int32Array(size).fill(-1);
    const messageIndex = new Int32Array(size).fill(-1);
    const idHash = new Uint32Array(size);
    const authors: string[] = new Array(rows);
    const languages: (string | null)[] = new Array(rows);
    const known = Math.min(remap.length, this.idHash.length);
    for (let r = 0; r < known; r++) {
      const j = remap[r];
      if (j < 0) continue;
      topicIndex[j] = this.topicIndex[r];
      messageIndex[j] = this.messageIndex[r];
      idHash[j] = this.idHash[r];
      authors[j] = this.authors[r];
      languages[j] = this.languages[r];
    }
    this.texts.remap(remap, rows);
    Object.assign(this, { topicIndex, messageIndex, idHash, authors, languages });
  }
}

/** An author as a sample shows it: the username as written, less one leading `@`. */
export function authorName(username: string): string {
  return username.charCodeAt(0) === 64 ? username.slice(1) : username;
}

/** 32-bit FNV-1a over UTF-16 code units: stable across processes, so the seeded order is too. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
