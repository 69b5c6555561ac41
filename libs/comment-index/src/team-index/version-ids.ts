import { bufferOf, sameBytes } from '../read-models/packed-columns';
import { fnv1a32 } from './row-details';

/**
 * The rows of one post version as they are appended from stored chunks, by comment id: an open-
 * addressing table of the ids' FNV-1a hashes (a hit is compared as a string, so two ids of one hash
 * stay apart), and where each row's id is packed, so the version's scores find their rows by
 * comparing bytes. Rows are `first`, `first + 1`, ... in the order added. One instance serves every
 * version in turn (appending is synchronous): its arrays are kept, not allocated per version.
 */
export class VersionIds {
  first = 0;
  rows = 0;
  private mask = 1;
  private slots = new Int32Array(2);
  private hashes = new Uint32Array(0);
  private textOf = new Int32Array(0);
  private starts = new Uint32Array(0);
  private ends = new Uint32Array(0);
  private texts: Uint8Array[] = [];
  private commentIds: readonly string[] = [];
  /** Scores seen so far: the next one is the row at this offset, as a rule. */
  private scoreAt = 0;

  /** Starts a version whose rows (at most `capacity`) are appended from row `first`. */
  begin(first: number, capacity: number, commentIds: readonly string[]): this {
    let size = 2;
    while (size < 2 * capacity) size *= 2;
    if (size > this.slots.length) this.slots = new Int32Array(size);
    this.slots.fill(-1, 0, size);
    this.mask = size - 1;
    if (capacity > this.hashes.length) {
      const length = Math.max(capacity, 2 * this.hashes.length);
      this.hashes = new Uint32Array(length);
      this.textOf = new Int32Array(length);
      this.starts = new Uint32Array(length);
      this.ends = new Uint32Array(length);
    }
    this.first = first;
    this.rows = 0;
    this.scoreAt = 0;
    this.commentIds = commentIds;
    return this;
  }

  /** Lets go of the version's chunks and ids. */
  end(): void {
    this.texts = [];
    this.commentIds = [];
  }

  /** Index of a chunk's text, for `add`. */
  addText(text: Uint8Array): number {
    return this.texts.push(text) - 1;
  }

  /** The row of this id (whose `fnv1a32` is `hash`) in the version, or -1. */
  find(id: string, hash: number): number {
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const k = this.slots[slot];
      if (k < 0) return -1;
      if (this.hashes[k] === hash && this.commentIds[this.first + k] === id) return this.first + k;
    }
  }

  /** Row `row` (the next one) has the id packed at `texts[text][start, end)`, hashed `hash`. */
  add(row: number, hash: number, text: number, start: number, end: number): void {
    const k = row - this.first;
    if (k !== this.rows) throw new Error(`row ${row} appended out of order`);
    let slot = hash & this.mask;
    while (this.slots[slot] >= 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = k;
    this.hashes[k] = hash;
    this.textOf[k] = text;
    this.starts[k] = start;
    this.ends[k] = end;
    this.rows++;
  }

  /** The row of the next score, whose comment id is packed at `text[start, end)`; -1 when none. */
  rowOfScore(text: Uint8Array, start: number, end: number): number {
    const k = this.scoreAt++;
    if (
      k < this.rows &&
      this.ends[k] - this.starts[k] === end - start &&
      sameBytes(text, start, end, this.texts[this.textOf[k]], this.starts[k])
    )
      return this.first + k;
    const id = bufferOf(text).toString('utf8', start, end);
    return this.find(id, fnv1a32(id));
  }
}
