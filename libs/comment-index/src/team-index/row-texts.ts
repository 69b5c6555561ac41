import { bufferOf } from '../read-models/packed-columns';

/** Rough bytes of a JS string held in an array: its header and pointer, plus a byte per code unit. */
const STRING_HEADER_BYTES = 24;

/**
 * Each row's body and `postedAt` as written. Rows loaded from stored chunks keep them as the UTF-8
 * the chunk packed them in (a copy of the chunk's text, shared by its rows) and decode one when it
 * is asked for: a page of a sample reads a hundred, where a cold load of 100,000 comments made two
 * strings for each (their decoding and the garbage they leave were about a fifth of a load). Rows
 * folded from events keep the strings they came with.
 */
export class RowTexts {
  /** Copies of loaded chunks' texts: a view would keep the store's whole answer alive. */
  private chunks: Uint8Array[] = [];
  /** Per row: its chunk in `chunks`, or -1 when its texts are strings (or it has none). */
  private chunkOf = new Int32Array(1024).fill(-1);
  /** Per packed row: where its `postedAt` starts, where its body starts (`postedAt` ends) and ends. */
  private postedAtStart = new Uint32Array(1024);
  private bodyStart = new Uint32Array(1024);
  private bodyEnd = new Uint32Array(1024);
  private bodies: (string | undefined)[] = [];
  private postedAts: (string | undefined)[] = [];
  private chunkBytes = 0;
  private stringBytes = 0;

  /** Bytes held: the chunks' texts, the per-row offsets and the strings of folded rows. */
  get bytes(): number {
    return (
      this.chunkBytes +
      this.stringBytes +
      this.chunkOf.byteLength +
      this.postedAtStart.byteLength +
      this.bodyStart.byteLength +
      this.bodyEnd.byteLength
    );
  }

  /** Makes room for rows up to `rows` - 1 at once. */
  reserve(rows: number): void {
    if (rows <= this.chunkOf.length) return;
    const size = Math.max(rows, this.chunkOf.length * 2);
    const grow = <T extends Int32Array | Uint32Array>(a: T, fill?: number): T => {
      const next = new (a.constructor as new (n: number) => T)(size);
      if (fill !== undefined) next.fill(fill);
      next.set(a);
      return next;
    };
    this.chunkOf = grow(this.chunkOf, -1);
    this.postedAtStart = grow(this.postedAtStart);
    this.bodyStart = grow(this.bodyStart);
    this.bodyEnd = grow(this.bodyEnd);
  }

  /** Keeps a copy of a stored chunk's text; its index for `packed`. */
  addChunk(text: Uint8Array): number {
    // Not `slice`: on a Buffer (the driver's Binary) it is a view on the same memory.
    this.chunks.push(new Uint8Array(text));
    this.chunkBytes += text.byteLength;
    return this.chunks.length - 1;
  }

  /** Row `row`'s `postedAt` is `[postedAtStart, bodyStart)` of the chunk's text, its body `[bodyStart, bodyEnd)`. */
  packed(row: number, chunk: number, postedAtStart: number, bodyStart: number, bodyEnd: number): void {
    this.reserve(row + 1);
    this.forget(row);
    this.chunkOf[row] = chunk;
    this.postedAtStart[row] = postedAtStart;
    this.bodyStart[row] = bodyStart;
    this.bodyEnd[row] = bodyEnd;
  }

  /** Row `row`'s texts as strings (a row folded from its events). */
  strings(row: number, postedAt: string, body: string): void {
    this.reserve(row + 1);
    this.forget(row);
    this.chunkOf[row] = -1;
    this.postedAts[row] = postedAt;
    this.bodies[row] = body;
    this.stringBytes += 2 * STRING_HEADER_BYTES + postedAt.length + body.length;
  }

  body(row: number): string | undefined {
    const chunk = row < this.chunkOf.length ? this.chunkOf[row] : -1;
    if (chunk < 0) return this.bodies[row];
    return bufferOf(this.chunks[chunk]).toString('utf8', this.bodyStart[row], this.bodyEnd[row]);
  }

  postedAt(row: number): string | undefined {
    const chunk = row < this.chunkOf.length ? this.chunkOf[row] : -1;
    if (chunk < 0) return this.postedAts[row];
    return bufferOf(this.chunks[chunk]).toString('utf8', this.postedAtStart[row], this.bodyStart[row]);
  }

  /** Moves every row to its number after a compaction (see TeamIndex.compact); chunks no row uses are dropped. */
  remap(remap: Int32Array, rows: number): void {
    const size = Math.max(1024, rows);
    const chunkOf = new Int32Array(size).fill(-1);
    const postedAtStart = new Uint32Array(size);
    const bodyStart = new Uint32Array(size);
    const bodyEnd = new Uint32Array(size);
    const bodies: (string | undefined)[] = new Array(rows);
    const postedAts: (string | undefined)[] = new Array(rows);
    const chunkMap = new Int32Array(this.chunks.length).fill(-1);
    const chunks: Uint8Array[] = [];
    let chunkBytes = 0;
    let stringBytes = 0;
    const known = Math.min(remap.length, this.chunkOf.length);
    for (let r = 0; r < known; r++) {
      const j = remap[r];
      if (j < 0) continue;
      const chunk = this.chunkOf[r];
      if (chunk >= 0) {
        if (chunkMap[chunk] < 0) {
          chunkMap[chunk] = chunks.push(this.chunks[chunk]) - 1;
          chunkBytes += this.chunks[chunk].byteLength;
        }
        chunkOf[j] = chunkMap[chunk];
        postedAtStart[j] = this.postedAtStart[r];
        bodyStart[j] = this.bodyStart[r];
        bodyEnd[j] = this.bodyEnd[r];
      } else if (this.bodies[r] !== undefined) {
        bodies[j] = this.bodies[r];
        postedAts[j] = this.postedAts[r];
        stringBytes += 2 * STRING_HEADER_BYTES + (bodies[j]?.length ?? 0) + (postedAts[j]?.length ?? 0);
      }
    }
    Object.assign(this, {
      chunks,
      chunkOf,
      postedAtStart,
      bodyStart,
      bodyEnd,
      bodies,
      postedAts,
      chunkBytes,
      stringBytes,
    });
  }

  /** Lets go of a row's strings before it is written again (counted once). */
  private forget(row: number): void {
    const body = this.bodies[row];
    if (body === undefined) return;
    this.stringBytes -= 2 * STRING_HEADER_BYTES + body.length + (this.postedAts[row]?.length ?? 0);
    this.bodies[row] = undefined;
    this.postedAts[row] = undefined;
  }
}
