import { HybridSearchModel, minilmStaticEmbedding } from '@analyst/comment-index';

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export interface ScaleFigures {
  comments: number;
  seconds: number;
  matchedAt03: number;
  modelLiveMB: number;
  modelRssMB: number;
  rssAfterMB: number;
}

/**
 * A search for "too expensive" over the bodies (100,000 by default) with the static-table hybrid: seconds,
 * and what loading the model added to the process's memory (run node with --expose-gc for steadier
 * figures). Run first, on a fresh process, so its memory figures are the model's and the search's.
 */
export async function scaleRun(bodies: readonly string[]): Promise<ScaleFigures> {
  const docs = bodies.map((text, i) => ({ text, relevance: 1 + (i % 10) }));
  global.gc?.();
  const before = process.memoryUsage();
  const embedding = await minilmStaticEmbedding();
  global.gc?.();
  const loaded = process.memoryUsage();
  const model = new HybridSearchModel(embedding);
  const started = process.hrtime.bigint();
  const scores = await model.relevance('too expensive', docs);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const after = process.memoryUsage();
  const matched = scores.filter((s) => s >= 0.3).length;
  const live = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external + m.arrayBuffers;
  console.log(
    `\nscale: "too expensive" over ${docs.length} comments in ${seconds.toFixed(2)} s, ${matched} matched at 0.3\n` +
      `model loaded: live memory (heap + buffers) +${MB(live(loaded) - live(before))}, rss +${MB(loaded.rss - before.rss)}; ` +
      `rss ${MB(after.rss)} after the search`,
  );
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  return {
    comments: docs.length,
    seconds,
    matchedAt03: matched,
    modelLiveMB: mb(live(loaded) - live(before)),
    modelRssMB: mb(loaded.rss - before.rss),
    rssAfterMB: mb(after.rss),
  };
}
