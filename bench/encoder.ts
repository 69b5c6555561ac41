/**
 * The sentence encoder (libs/encoder): load time, comments/s with 1 and 2 threads and by chunk
 * size, a 128-token worst case, the event loop's delay while it works, a query's wait behind a
 * backfill, memory per process, and a quick paraphrase check, for every catalogue model whose
 * files are in models/ (npm ci brings the default; `npm run model:fetch -- --all` the others).
 * Then why the encoder runs one text per model run: padded batches in onnxruntime, their speed and
 * how far their vectors move.
 *
 *   npm run bench -- bench/encoder.ts            # 2–4 minutes on 2 cores
 *
 * Timings are noisy on a shared machine: compare rows of one run.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { SimulatedProvider } from '@analyst/provider-sim';
import {
  DEFAULT_MODEL,
  dot,
  loadLocalEncoder,
  localModelProblem,
  modelNames,
  modelSpec,
  modelsDir,
  SentenceEncoder,
} from '@analyst/encoder';
import { CommentTokenizer } from '../libs/encoder/src/comment-tokenizer';
import { PARAPHRASE_PAIRS } from './encoder.pairs';

/** Comments per throughput run: fewer for the slower, non-default models. */
const commentsFor = (model: string) => (model === DEFAULT_MODEL ? 3000 : 1000);

/** Comment bodies of simulated sections: short, like most comments (median 38 characters). */
function simulatedComments(count: number): string[] {
  const provider = new SimulatedProvider();
  const texts: string[] = [];
  for (let i = 0; texts.length < count; i++) {
    const fetched = provider.fetchPostSync(
      `https://www.youtube.com/watch?v=encbench${String(i).padStart(3, '0')}`,
      { fullRead: true },
    );
    if (fetched.status === 'ok') texts.push(...fetched.comments.map((c) => c.body));
  }
  return texts.slice(0, count);
}

/** Texts past the 128-token cut: the most a comment costs. */
function longComments(count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) =>
      `comment ${i}: ` +
      'this product stopped working after two weeks and support never answered my emails. '.repeat(12),
  );
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

async function throughput(encoder: SentenceEncoder, texts: string[]): Promise<number> {
  await encoder.embed(texts.slice(0, 100)); // warm: the first runs allocate onnxruntime's arena
  const start = process.hrtime.bigint();
  await encoder.embed(texts);
  return texts.length / seconds(start);
}

async function load(
  model: string,
  threads: number,
  batchSize?: number,
): Promise<{ encoder: SentenceEncoder; ms: number }> {
  const start = process.hrtime.bigint();
  const encoder = await loadLocalEncoder({ model, threads, batchSize });
  if (!encoder) throw new Error(`${model} did not load`);
  return { encoder, ms: seconds(start) * 1000 };
}

/** Runs in a child process of its own, so the figures are the model's alone: memory before, loaded, after embedding. */
async function memoryChild(model: string, threads: number): Promise<void> {
  const texts = simulatedComments(commentsFor(model));
  global.gc?.();
  const before = process.memoryUsage();
  const { encoder } = await load(model, threads);
  global.gc?.();
  const loaded = process.memoryUsage();
  await encoder.embed(texts);
  global.gc?.();
  const used = process.memoryUsage();
  const delta = (m: NodeJS.MemoryUsage) => ({
    rss: m.rss - before.rss,
    heap: m.heapUsed - before.heapUsed,
    external: m.external - before.external,
  });
  process.stdout.write(JSON.stringify({ loaded: delta(loaded), used: delta(used) }));
  await encoder.close();
}

function memoryOf(
  model: string,
  threads: number,
): { loaded: Record<string, number>; used: Record<string, number> } {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', ...process.execArgv, __filename, '--memory', model, String(threads)],
    { encoding: 'utf8' },
  );
  return JSON.parse(out) as { loaded: Record<string, number>; used: Record<string, number> };
}

async function eventLoopDelay(
  encoder: SentenceEncoder,
  texts: string[],
): Promise<{ p99: number; max: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  await encoder.embed(texts);
  histogram.disable();
  return { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
}

/** How long a one-text call waits while a large call is being embedded. */
async function queryWaitBehindBackfill(encoder: SentenceEncoder, texts: string[]): Promise<number> {
  const backfill = encoder.embed(texts);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const start = process.hrtime.bigint();
  await encoder.embed(['is the battery any good']);
  const ms = seconds(start) * 1000;
  await backfill;
  return ms;
}

async function paraphraseCheck(encoder: SentenceEncoder): Promise<string> {
  const queries = await encoder.embed(PARAPHRASE_PAIRS.map((p) => p[0]));
  const comments = await encoder.embed(PARAPHRASE_PAIRS.map((p) => p[1]));
  let top1 = 0;
  let reciprocal = 0;
  let above = 0;
  let pairs = 0;
  const matched: number[] = [];
  const unrelated: number[] = [];
  queries.forEach((q, i) => {
    const scores = comments.map((c) => dot(q, c));
    const rank = 1 + scores.filter((s, j) => j !== i && s > scores[i]).length;
    if (rank === 1) top1++;
    reciprocal += 1 / rank;
    matched.push(scores[i]);
    scores.forEach((s, j) => j !== i && unrelated.push(s));
  });
  for (const m of matched)
    for (const u of unrelated) {
      above += m > u ? 1 : 0;
      pairs++;
    }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const n = queries.length;
  return `recall@1 ${(top1 / n).toFixed(3)}, MRR ${(reciprocal / n).toFixed(3)}, AUC ${(above / pairs).toFixed(3)}, mean cosine paraphrase ${mean(matched).toFixed(3)} / unrelated ${mean(unrelated).toFixed(3)}`;
}

async function benchModel(model: string): Promise<void> {
  const spec = modelSpec(model);
  console.log(
    `\n## ${model} (${spec.pooling} pooling, ${spec.maxTokens} tokens, ${(spec.files.model.bytes / 1e6).toFixed(1)} MB)`,
  );
  const count = commentsFor(model);
  const short = simulatedComments(count);
  const long = longComments(300);

  const one = await load(model, 1);
  console.log(`load, 1 thread: ${one.ms.toFixed(0)} ms (hash check, worker start, session)`);
  console.log(`short comments, 1 thread: ${(await throughput(one.encoder, short)).toFixed(0)} comments/s`);
  console.log(`128-token comments, 1 thread: ${(await throughput(one.encoder, long)).toFixed(0)} comments/s`);
  const delay = await eventLoopDelay(one.encoder, short);
  console.log(
    `event loop delay while embedding ${count}: p99 ${delay.p99.toFixed(1)} ms, max ${delay.max.toFixed(1)} ms`,
  );
  console.log(
    `a one-text call behind a ${count}-comment call: ${(await queryWaitBehindBackfill(one.encoder, short)).toFixed(0)} ms`,
  );
  console.log(`paraphrase pairs (${PARAPHRASE_PAIRS.length}): ${await paraphraseCheck(one.encoder)}`);
  await one.encoder.close();

  for (const batchSize of [8, 128]) {
    const chunked = await load(model, 1, batchSize);
    console.log(
      `short comments, 1 thread, chunks of ${batchSize}: ${(await throughput(chunked.encoder, short)).toFixed(0)} comments/s`,
    );
    await chunked.encoder.close();
  }

  const two = await load(model, 2);
  console.log(`load, 2 threads: ${two.ms.toFixed(0)} ms`);
  console.log(`short comments, 2 threads: ${(await throughput(two.encoder, short)).toFixed(0)} comments/s`);
  await two.encoder.close();

  for (const threads of [1, 2]) {
    const m = memoryOf(model, threads);
    console.log(
      `memory, ${threads} thread(s), own process: loaded RSS +${mb(m.loaded.rss)} MB (heap +${mb(m.loaded.heap)}, external +${mb(m.loaded.external)}); ` +
        `after ${commentsFor(model)} comments RSS +${mb(m.used.rss)} MB (heap +${mb(m.used.heap)}, external +${mb(m.used.external)})`,
    );
  }
}

/** The models' speeds side by side: rounds alternate between them, so a change of load hits both. */
async function sideBySide(models: string[]): Promise<void> {
  const texts = simulatedComments(1000);
  const encoders = await Promise.all(models.map(async (model) => (await load(model, 1)).encoder));
  for (const encoder of encoders) await encoder.embed(texts.slice(0, 100));
  const rates: number[][] = models.map(() => []);
  for (let round = 0; round < 4; round++)
    for (const [i, encoder] of encoders.entries()) {
      const start = process.hrtime.bigint();
      await encoder.embed(texts);
      rates[i].push(texts.length / seconds(start));
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(`\n## side by side, 1 thread each, 1,000 short comments, 4 alternating rounds`);
  models.forEach((model, i) =>
    console.log(
      `${model}: ${rates[i].map((r) => r.toFixed(0)).join(', ')} comments/s (median ${median(rates[i]).toFixed(0)})`,
    ),
  );
  await Promise.all(encoders.map((e) => e.close()));
}

/**
 * Padded batches in onnxruntime (this thread, the encoder's session options), sorted by length:
 * speed in two alternating rounds, and the cosine of each vector to its one-text run.
 */
async function batchingCheck(): Promise<void> {
  const spec = modelSpec(DEFAULT_MODEL);
  const dir = join(modelsDir(), spec.name);
  const tokenizer = new CommentTokenizer(
    JSON.parse(readFileSync(join(dir, spec.files.tokenizer.name), 'utf8')) as object,
    spec.maxTokens,
  );
  const session = await InferenceSession.create(join(dir, spec.files.model.name), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
  });
  const texts = simulatedComments(1024).sort((a, b) => tokenizer.ids(a).length - tokenizer.ids(b).length);
  const run = async (batch: string[]): Promise<Float32Array[]> => {
    const ids = batch.map((t) => tokenizer.ids(t));
    const width = Math.max(...ids.map((i) => i.length));
    const size = batch.length * width;
    const input = new BigInt64Array(size);
    const mask = new BigInt64Array(size);
    ids.forEach((row, r) =>
      row.forEach((id, c) => ((input[r * width + c] = BigInt(id)), (mask[r * width + c] = 1n))),
    );
    const shape = [batch.length, width];
    const out = await session.run({
      input_ids: new Tensor('int64', input, shape),
      attention_mask: new Tensor('int64', mask, shape),
      token_type_ids: new Tensor('int64', new BigInt64Array(size), shape),
    });
    const hidden = out.last_hidden_state.data as Float32Array;
    return ids.map((row, r) => {
      const v = new Float32Array(spec.dims);
      for (let t = 0; t < row.length; t++)
        for (let d = 0; d < spec.dims; d++) v[d] += hidden[(r * width + t) * spec.dims + d];
      const norm = Math.sqrt(dot(v, v));
      return v.map((x) => x / norm);
    });
  };
  console.log(
    `\n## one text per run vs padded batches (${spec.name}, onnxruntime in this thread, ${texts.length} comments sorted by length)`,
  );
  await run(texts.slice(0, 32));
  let alone: Float32Array[] = [];
  const sizes = [1, 8, 32, 128];
  const rates = new Map<number, number[]>(sizes.map((size) => [size, []]));
  const worst = new Map<number, number>();
  for (let round = 0; round < 2; round++)
    for (const size of sizes) {
      const start = process.hrtime.bigint();
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += size) vectors.push(...(await run(texts.slice(i, i + size))));
      rates.get(size)?.push(texts.length / seconds(start));
      if (size === 1) alone = vectors;
      worst.set(size, Math.min(...vectors.map((v, i) => dot(v, alone[i]))));
    }
  for (const size of sizes) {
    const measured = (rates.get(size) ?? []).map((r) => r.toFixed(0)).join(', ');
    console.log(
      `batch ${size}: ${measured} comments/s (2 rounds), lowest cosine to the text's own run ${worst.get(size)?.toFixed(4)}`,
    );
  }
  await session.release();
}

async function main(): Promise<void> {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (2 cores shared: compare rows of one run)`,
  );
  const present: string[] = [];
  for (const model of modelNames()) {
    const problem = await localModelProblem({ model });
    if (problem) console.log(`\n## ${model}: skipped (${problem})`);
    else {
      present.push(model);
      await benchModel(model);
    }
  }
  if (present.length > 1) await sideBySide(present);
  if (!(await localModelProblem())) await batchingCheck();
}

const memoryFlag = process.argv.indexOf('--memory');
if (memoryFlag >= 0) void memoryChild(process.argv[memoryFlag + 1], Number(process.argv[memoryFlag + 2]));
else void main();
