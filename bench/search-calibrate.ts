/**
 * Fits the encoder search's calibration (libs/comment-index `search-calibration.ts`) on the
 * VALIDATION split of the paraphrase bench, and prints the `minRelevance` with the best macro-F1
 * there. The test split is never read here.
 *
 *   npm run bench -- bench/search-calibrate.ts
 *
 * 1. The cosine prior: each validation query against DISTRACTORS simulated comments (unrelated to
 *    every query), their cosines' mean and spread (`COSINE_PRIOR`).
 * 2. For every validation query, each comment of its own section is one example: the cosine of the
 *    query's and the comment's sentence vectors (int8, as stored), its lift over the section's
 *    cosines, its keyword match (BM25, 0..1), and whether it means the query. The comments
 *    labelled for a query that share a word with it count here (the match figures leave them out,
 *    since they test nothing about meaning): they and the near misses are what teach the keyword
 *    weights. A logistic regression (Newton's method, a little L2) turns the features into the
 *    chance that the comment means the query.
 */
import {
  bm25Match,
  dotQuantized,
  EncoderSearchModel,
  quantizeAll,
  selectionCosines,
  type CosinePrior,
  type SearchCalibration,
} from '@analyst/comment-index';
import { loadLocalEncoder } from '@analyst/encoder';
import { labelSection } from './search-bench/labelled-section';
import { matchFigures, scoreSections } from './search-bench/match-sets';
import { BENCH_SECTIONS } from './search-bench/sections';
import { simulatedBodies } from './search-bench/simulated-comments';

const DISTRACTORS = Number(process.env.DISTRACTORS ?? 2_000);
/** The prior's weight, in comments: a section of this bench holds 60-90. */
const PRIOR_COMMENTS = 20;

interface Example {
  x: number[];
  y: number;
}

/**
 * Newton's method for a logistic regression with classes weighted equally (`positiveShare` is
 * their share of the examples) and an L2 penalty `lambda` (intercept unpenalised): a relevance is
 * then the chance at even odds, whatever share of a selection means the query.
 */
function fitLogistic(
  examples: readonly Example[],
  positiveShare: number,
  lambda = 1e-3,
  rounds = 50,
): number[] {
  const k = examples[0].x.length;
  let w = new Array<number>(k).fill(0);
  for (let round = 0; round < rounds; round++) {
    const g = new Array<number>(k).fill(0);
    const h = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    for (const { x, y } of examples) {
      const z = x.reduce((s, v, i) => s + v * w[i], 0);
      const p = 1 / (1 + Math.exp(-z));
      const weight = y === 1 ? 0.5 / positiveShare : 0.5 / (1 - positiveShare);
      for (let i = 0; i < k; i++) {
        g[i] += weight * (p - y) * x[i];
        for (let j = 0; j < k; j++) h[i][j] += weight * p * (1 - p) * x[i] * x[j];
      }
    }
    for (let i = 1; i < k; i++) {
      g[i] += lambda * examples.length * w[i];
      h[i][i] += lambda * examples.length;
    }
    const step = solve(h, g);
    w = w.map((v, i) => v - step[i]);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return w;
}

/** Gaussian elimination with partial pivoting: a small dense system. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) pivot = r;
    [m[c], m[pivot]] = [m[pivot], m[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / m[c][c];
      for (let j = c; j <= n; j++) m[r][j] -= f * m[c][j];
    }
  }
  return m.map((row, i) => row[n] / row[i]);
}

async function main() {
  const sections = BENCH_SECTIONS.filter((s) => s.split === 'validation').map(labelSection);
  const encoder = await loadLocalEncoder({ threads: 2 });
  if (!encoder) throw new Error('the sentence encoder is not installed: npm run model:fetch');
  const distractors = quantizeAll(await encoder.embed(simulatedBodies(DISTRACTORS)), encoder.dims);
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (const section of sections)
    for (const q of section.queries) {
      const [qv] = await encoder.embed([q.text]);
      for (let i = 0; i < DISTRACTORS; i++) {
        const c = dotQuantized(qv, distractors, i * encoder.dims);
        n++;
        sum += c;
        squares += c * c;
      }
    }
  const prior: CosinePrior = {
    mean: round(sum / n),
    sd: round(Math.sqrt(squares / n - (sum / n) ** 2)),
    comments: PRIOR_COMMENTS,
  };
  console.log('cosine prior (validation queries × simulated comments):', JSON.stringify(prior));

  const examples: Example[] = [];
  for (const section of sections) {
    const docs = section.comments.map((c) => ({ text: c.text, relevance: NaN }));
    const vectors = quantizeAll(await encoder.embed(docs.map((d) => d.text)), encoder.dims);
    for (const q of section.queries) {
      if (q.relevant.length === 0) continue;
      const [qv] = await encoder.embed([q.text]);
      const relevant = new Set(q.relevant);
      const excluded = new Set(q.excluded);
      const cosines = docs.map((_, i) => dotQuantized(qv, vectors, i * encoder.dims));
      const selection = selectionCosines(cosines, prior);
      cosines.forEach((cosine, i) => {
        if (excluded.has(i)) return;
        const lift = (cosine - selection.mean) / selection.sd;
        examples.push({ x: [1, cosine, lift], y: relevant.has(i) ? 1 : 0 });
      });
    }
  }
  const positives = examples.filter((e) => e.y === 1).length;
  console.log(
    `validation: ${sections.length} sections, ${sections.reduce((n, s) => n + s.queries.length, 0)} queries, ` +
      `${examples.length} query × comment examples (${positives} relevant)`,
  );
  const [intercept, cosine, lift] = fitLogistic(examples, positives / examples.length);
  for (const keywordShare of KEYWORD_SHARES) {
    const calibration: SearchCalibration = {
      intercept: round(intercept),
      cosine: round(cosine),
      lift: round(lift),
      keywordShare,
    };
    const scored = await scoreSections(
      new EncoderSearchModel(async () => encoder, calibration, prior),
      sections,
    );
    const rows = FINE_THRESHOLDS.map((t) => matchFigures(scored, t));
    const best = rows.reduce((a, b) => (b.f1 > a.f1 ? b : a));
    console.log(`calibration: ${JSON.stringify(calibration)}`);
    console.log(
      `  best on validation: minRelevance ${best.threshold} (precision ${best.precision.toFixed(3)}, recall ${best.recall.toFixed(3)}, macro-F1 ${best.f1.toFixed(3)}; near misses kept ${best.falseMatches['near-miss']})`,
    );
    for (const r of rows.filter((_, k) => k % 10 === 9))
      console.log(
        `  at ${r.threshold.toFixed(2)}: precision ${r.precision.toFixed(3)} recall ${r.recall.toFixed(3)} macro-F1 ${r.f1.toFixed(3)}`,
      );
  }
  await encoder.close();
}

/** Keyword shares tried: the README's rule picks one; the figures show what it costs on meaning alone. */
const KEYWORD_SHARES = [0, 0.8, 0.9];
/** 0.01 .. 0.99. */
const FINE_THRESHOLDS = Array.from({ length: 99 }, (_, k) => (k + 1) / 100);

const round = (v: number): number => Math.round(v * 1000) / 1000;

void main();
