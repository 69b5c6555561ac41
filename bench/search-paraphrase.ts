/**
 * AI search on paraphrases: does the default search model find comments that say what the query
 * says in other words? And how long does it take over 100,000 comments?
 *
 *   npm run bench -- bench/search-paraphrase.ts
 *
 * 1. Retrieval. Each query of bench/search-paraphrase.cases.ts (hand-written) has comments that share
 *    no content stem with it, mixed into DISTRACTORS simulated comments (default 20,000) and the
 *    other queries' comments. With SEARCH_PARAPHRASE_PAIRS set to a TSV file of labelled paraphrase
 *    pairs (`sentence1<TAB>sentence2`, one pair a line), its pairs without a shared content stem
 *    are added: the first side is a query, the second its one relevant comment (see the
 *    comment-index README for the corpus used and how to get it; it is not committed).
 *    Printed for the default model and BM25 alone: recall@10, MRR, and the share of relevant and of
 *    distractor comments matched at minRelevance 0 / 0.3 / 0.5 / 0.7 (comments are unscored here).
 * 2. Scale. A search for "too expensive" over 100,000 simulated comments: seconds, and what
 *    loading the model added to the process's memory (run with --expose-gc for steadier figures:
 *    SWC_NODE_PROJECT=tsconfig.json node --expose-gc -r @swc-node/register bench/search-paraphrase.ts).
 *
 * SEARCH_PARAPHRASE_DUMP=<file.json> also writes the retrieval sets (queries, relevant rows, all
 * comments), for tools/distill-embeddings/teacher_recall.py to score the teacher on the same task.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { SimulatedProvider } from '@analyst/provider-sim';
import {
  Bm25SearchModel,
  dot,
  HybridSearchModel,
  minilmStaticEmbedding,
  stems,
  type SearchDocument,
  type SearchModel,
} from '@analyst/comment-index';
import { PARAPHRASE_CASES } from './search-paraphrase.cases';

const DISTRACTORS = Number(process.env.DISTRACTORS ?? 20_000);
const SCALE = Number(process.env.SCALE_COMMENTS ?? 100_000);
const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

interface Query {
  text: string;
  relevant: number[];
}

function simulatedBodies(count: number): string[] {
  const provider = new SimulatedProvider();
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const link = `https://www.youtube.com/watch?v=S${String(i).padStart(10, '0')}`;
    const fetched = provider.fetchPostSync(link, { fullRead: true });
    if (fetched.status === 'ok') for (const c of fetched.comments) out.push(c.body);
  }
  return out.slice(0, count);
}

const shareStem = (a: string, b: string) => {
  const s = new Set(stems(a));
  return stems(b).some((x) => s.has(x));
};

function pairsFromFile(file: string): { query: string; comment: string }[] {
  const out: { query: string; comment: string }[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [a, b] = line.split('\t');
    if (a && b && stems(a).length > 0 && stems(b).length > 0 && !shareStem(a, b))
      out.push({ query: a.trim(), comment: b.trim() });
  }
  return out;
}

/** Rank of each relevant document (1 = best); a document scored 0 is not found. */
function ranks(scores: Float64Array, relevant: number[]): number[] {
  return relevant.map((r) => {
    if (scores[r] <= 0) return Infinity;
    let above = 0;
    for (let i = 0; i < scores.length; i++)
      if (scores[i] > scores[r] || (scores[i] === scores[r] && i < r)) above++;
    return above + 1;
  });
}

async function evaluate(
  name: string,
  model: SearchModel,
  queries: Query[],
  docs: SearchDocument[],
  distractorCount: number,
) {
  let found = 0;
  let total = 0;
  let rr = 0;
  // What the job keeps at each minRelevance: relevance above 0 and at least the threshold.
  const thresholds = [0, 0.3, 0.5, 0.7];
  const relevantAt = thresholds.map(() => 0);
  const distractorAt = thresholds.map(() => 0);
  const started = Date.now();
  for (const q of queries) {
    const scores = await model.relevance(q.text, docs);
    const r = ranks(scores, q.relevant);
    found += r.filter((x) => x <= 10).length;
    total += q.relevant.length;
    rr += 1 / Math.min(...r);
    thresholds.forEach((t, k) => {
      relevantAt[k] += q.relevant.filter((i) => scores[i] > 0 && scores[i] >= t).length;
      for (let i = 0; i < distractorCount; i++) if (scores[i] > 0 && scores[i] >= t) distractorAt[k]++;
    });
  }
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(
    `${name.padEnd(22)} recall@10 ${(found / total).toFixed(3)}  MRR ${(rr / queries.length).toFixed(3)}  ` +
      thresholds
        .map(
          (t, k) =>
            `@${t}: relevant ${pct(relevantAt[k] / total)}, distractors ${pct(distractorAt[k] / (distractorCount * queries.length))}`,
        )
        .join('  ') +
      `  (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

/** Percentiles of the static-embedding cosine: relevant pairs against query × distractor pairs. */
async function cosines(queries: Query[], docs: SearchDocument[], distractorCount: number) {
  const embedding = await minilmStaticEmbedding();
  const vectors = docs.map((d) => embedding.embed(d.text));
  const relevant: number[] = [];
  const unrelated: number[] = [];
  for (const q of queries) {
    const v = embedding.embed(q.text);
    if (!v) continue;
    const cos = (i: number) => (vectors[i] ? dot(v, vectors[i]!) : 0);
    for (const i of q.relevant) relevant.push(cos(i));
    for (let i = 0; i < distractorCount; i++) unrelated.push(cos(i));
  }
  const pct = (xs: number[], p: number[]) =>
    p.map(
      (x) =>
        `p${x} ${xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((x / 100) * xs.length))].toFixed(2)}`,
    );
  console.log(`cosine, relevant: ${pct(relevant, [10, 25, 50, 75, 90]).join(' ')}`);
  console.log(`cosine, distractors: ${pct(unrelated, [50, 90, 95, 99, 99.9]).join(' ')}`);
}

async function retrieval(bodies: string[]) {
  const docs: SearchDocument[] = bodies.map((text) => ({ text, relevance: NaN }));
  const distractorCount = docs.length;
  const sets: { name: string; queries: Query[] }[] = [];
  const handWritten: Query[] = [];
  let dropped = 0;
  for (const c of PARAPHRASE_CASES) {
    const relevant: number[] = [];
    for (const comment of c.comments) {
      if (shareStem(c.query, comment)) {
        dropped++;
        continue;
      }
      relevant.push(docs.push({ text: comment, relevance: NaN }) - 1);
    }
    handWritten.push({ text: c.query, relevant });
  }
  sets.push({ name: 'hand-written', queries: handWritten });
  const file = process.env.SEARCH_PARAPHRASE_PAIRS;
  if (file && existsSync(file)) {
    const pairs = pairsFromFile(file);
    const queries = pairs.map((p) => ({
      text: p.query,
      relevant: [docs.push({ text: p.comment, relevance: NaN }) - 1],
    }));
    sets.push({ name: `pairs from ${file}`, queries });
  } else {
    console.log(
      'SEARCH_PARAPHRASE_PAIRS unset: only the hand-written cases. See libs/comment-index/README.md ("AI search") for the corpus.',
    );
  }
  const dump = process.env.SEARCH_PARAPHRASE_DUMP;
  if (dump) writeFileSync(dump, JSON.stringify({ sets, comments: docs.map((d) => d.text), distractorCount }));
  console.log(
    `\n${distractorCount} distractors, ${docs.length} comments in all; ${dropped} hand-written comments dropped for a shared stem`,
  );
  for (const set of sets) {
    const relevant = set.queries.reduce((n, q) => n + q.relevant.length, 0);
    console.log(`\n${set.name}: ${set.queries.length} queries, ${relevant} relevant comments`);
    await cosines(set.queries, docs, distractorCount);
    await evaluate('local-hybrid-minilm', new HybridSearchModel(), set.queries, docs, distractorCount);
    await evaluate('local-bm25 (alone)', new Bm25SearchModel(), set.queries, docs, distractorCount);
  }
}

async function scale(bodies: string[]) {
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
}

async function main() {
  const bodies = simulatedBodies(Math.max(SCALE, DISTRACTORS));
  // The scale run first, on a fresh process, so its memory figures are the model's and the search's.
  await scale(bodies.slice(0, SCALE));
  await retrieval(bodies.slice(0, DISTRACTORS));
}

void main();
