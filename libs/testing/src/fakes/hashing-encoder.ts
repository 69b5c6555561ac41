/**
 * A small deterministic stand-in for the sentence encoder (the shape `@analyst/comment-index`
 * reads) in storage and read-side tests: each lower-cased word adds to one of 16 dimensions (by a
 * hash), then the vector is normalised. Texts sharing words get close vectors; it counts what it
 * embedded so a test can see what was computed and what was read. Meaning is the real encoder's
 * tests' concern.
 */
export class HashingEncoder {
  readonly model = 'hashing-16';
  readonly dims = 16;
  embeddedTexts = 0;
  calls = 0;

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls++;
    this.embeddedTexts += texts.length;
    return texts.map((text) => {
      const v = new Float32Array(this.dims);
      for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
        let h = 0;
        for (let i = 0; i < word.length; i++) h = (h * 31 + word.charCodeAt(i)) >>> 0;
        v[h % this.dims] += 1;
      }
      const norm = Math.hypot(...v);
      return norm === 0 ? v : v.map((x) => x / norm);
    });
  }
}
