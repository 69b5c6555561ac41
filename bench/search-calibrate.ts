/**
 * Fits the encoder search's calibration (libs/comment-index `search-calibration.ts`) on the
 * VALIDATION split of the paraphrase bench, and prints the `minRelevance` with the best macro-F1
 * there. The test split is never read here.
 *
 *   npm run bench -- bench/search-calibrate.ts
 *
 * 1. The cosine prior: each validation query against DISTRACTORS simulated comments (unrelated to
 *    every query), their cosines' mean and spread (`COSINE_PRIOR`).
 * 2. Examples, each a query × comment with its cosine, its lift over the comments it was searched
 *    with, and whether it means the query:
 *    - each validation query over its own section's comments (what a user sees under a post);
 *    - each validation query over the distractors as one selection of nothing relevant, so a
 *      selection where no comment means the query keeps (almost) none: without these, the lift
 *      alone would keep the top few percent of any selection. Together they weigh as much as the
 *      sections' negatives.
 *    A logistic regression (Newton's method, a little L2), classes weighted equally, turns the
 *    features into the chance that the comment means the query.
 * 3. The sweep: macro-F1 over the validation sections, and the share of distractors kept, by
 *    threshold, with the keyword shares the README's rule chooses among.
 */
import {
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
/** Keyword shares tried: the README's rule picks one; the figures show what it costs on meaning alone. */
const KEYWORD_SHARE = 0.85;
/**
 * How much the distractor selections weigh against the sections' negatives in the fit (1, 4 and 16
 * were tried: validation macro-F1 0.531 / 0.524 / 0.521 at the best threshold, distractors kept
 * 2.50% / 2.15% / 1.95%; 4 is kept). DISTRACTOR_WEIGHTS=1,4,16 prints them side by side.
 */
const DISTRACTOR_WEIGHTS = (process.env.DISTRACTOR_WEIGHTS ?? '4').split(',').map(Number);
/** 0.01 .. 0.99. */
const THRESHOLDS = Array.from({ length: 99 }, (_, k) => (k + 1) / 100);

interface Example {
  x: number[];
  y: 0 | 1;
  weight: number;
}

/**
 * Newton's method for a weighted logistic regression, the two classes' weights scaled to the same
 * total (a relevance is then the chance at even odds, whatever share of a selection means the
 * query), with an L2 penalty `lambda` (intercept unpenalised).
 */
function fitLogistic(examples: readonly Example[], lambda = 1e-3, rounds = 50): number[] {
  const k = examples[0].x.length;
  const total = (y: 0 | 1) => examples.reduce((t, e) => t + (e.y === y ? e.weight : 0), 0);
  const scale = { 0: examples.length / 2 / total(0), 1: examples.length / 2 / total(1) };
  let w = new Array<number>(k).fill(0);
  for (let round = 0; round < rounds; round++) {
    const g = new Array<number>(k).fill(0);
    const h = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    for (const e of examples) {
      const p = 1 / (1 + Math.exp(-e.x.reduce((s, v, i) => s + v * w[i], 0)));
      const weight = e.weight * scale[e.y];
      for (let i = 0; i < k; i++) {
        g[i] += weight * (p - e.y) * e.x[i];
        for (let j = 0; j < k; j++) h[i][j] += weight * p * (1 - p) * e.x[i] * e.x[j];
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

/** A query's examples over one selection of comments: cosine, lift, whether each means it. */
function selectionExamples(
  cosines: readonly number[],
  relevant: (i: number) => boolean,
  prior: CosinePrior,
  weight: number,
): Example[] {
  const selection = selectionCosines(cosines, prior);
  return cosines.map((cosine, i) => ({
    x: [1, cosine, (cosine - selection.mean) / selection.sd],
    y: relevant(i) ? 1 : 0,
    weight,
  }));
}

async function main() {
  const sections = BENCH_SECTIONS.filter((s) => s.split === 'validation').map(labelSection);
  const encoder = await loadLocalEncoder({ threads: 2 });
  if (!encoder) throw new Error('the sentence encoder is not installed: npm run model:fetch');
  const distractorTexts = simulatedBodies(DISTRACTORS);
  const distractors = quantizeAll(await encoder.embed(distractorTexts), encoder.dims);
  const pool = distractorTexts.map((text, i) => ({
    text,
    relevance: NaN,
    vector: distractors.subarray(i * encoder.dims, (i + 1) * encoder.dims),
  }));
  const queryVectors = new Map<string, Float32Array>();
  const distractorCosines = new Map<string, number[]>();
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (const section of sections)
    for (const q of section.queries) {
      const [qv] = await encoder.embed([q.text]);
      queryVectors.set(q.text, qv);
      const cosines = Array.from({ length: DISTRACTORS }, (_, i) =>
        dotQuantized(qv, distractors, i * encoder.dims),
      );
      distractorCosines.set(q.text, cosines);
      for (const c of cosines) {
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

  const sectionExamples: Example[] = [];
  for (const section of sections) {
    const vectors = quantizeAll(await encoder.embed(section.comments.map((c) => c.text)), encoder.dims);
    for (const q of section.queries) {
      if (q.relevant.length === 0) continue;
      const qv = queryVectors.get(q.text)!;
      const relevant = new Set(q.relevant);
      const excluded = new Set(q.excluded);
      const cosines = section.comments.map((_, i) => dotQuantized(qv, vectors, i * encoder.dims));
      sectionExamples.push(
        ...selectionExamples(cosines, (i) => relevant.has(i), prior, 1).filter((_, i) => !excluded.has(i)),
      );
    }
  }
  const sectionNegatives = sectionExamples.filter((e) => e.y === 0).length;
  console.log(
    `validation: ${sections.length} sections, ${distractorCosines.size} queries; ${sectionExamples.length} query × section comment examples ` +
      `(${sectionExamples.length - sectionNegatives} relevant), ${DISTRACTORS * distractorCosines.size} query × distractor examples`,
  );
  for (const factor of DISTRACTOR_WEIGHTS) {
    const distractorWeight = (factor * sectionNegatives) / (DISTRACTORS * distractorCosines.size);
    const examples = [...sectionExamples];
    for (const cosines of distractorCosines.values())
      examples.push(...selectionExamples(cosines, () => false, prior, distractorWeight));
    const [intercept, cosine, lift] = fitLogistic(examples);
    const calibration: SearchCalibration = {
      intercept: round(intercept),
      cosine: round(cosine),
      lift: round(lift),
      keywordShare: KEYWORD_SHARE,
    };
    const model = new EncoderSearchModel(async () => encoder, calibration, prior);
    const scored = await scoreSections(model, sections);
    const kept = new Array<number>(THRESHOLDS.length).fill(0);
    for (const text of distractorCosines.keys()) {
      const relevance = await model.relevance(text, pool);
      relevance.forEach((r) => THRESHOLDS.forEach((t, k) => r > 0 && r >= t && kept[k]++));
    }
    const rows = THRESHOLDS.map((t) => matchFigures(scored, t));
    const best = rows.reduce((a, b) => (b.f1 > a.f1 ? b : a));
    console.log(
      `\ndistractors weigh ${factor}× the sections' negatives; calibration: ${JSON.stringify(calibration)}`,
    );
    console.log(`  best on validation: minRelevance ${best.threshold}`);
    rows.forEach((r, k) => {
      if (k % 10 !== 9 && r !== best) return;
      const share = kept[k] / (DISTRACTORS * distractorCosines.size);
      console.log(
        `  at ${r.threshold.toFixed(2)}: precision ${r.precision.toFixed(3)} recall ${r.recall.toFixed(3)} macro-F1 ${r.f1.toFixed(3)}; ` +
          `distractors kept ${(100 * share).toFixed(2)}%`,
      );
    });
  }
  await encoder.close();
}

const round = (v: number): number => Math.round(v * 1000) / 1000;

void main();
