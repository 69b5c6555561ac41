/**
 * AI search on paraphrases: does a search model find comments that say what the query says in
 * other words, and keep the comments that do not? And how long does a search over 100,000 take?
 *
 *   npm run bench -- bench/search-paraphrase.ts [--split validation|test] [--json <file>]
 *                    [--models <name,name>] [--check]
 *
 * Data: bench/search-bench/sections.ts (comment sections written for this project, split into
 * validation and test; choose on validation, report test only). --split picks one (validation by
 * default). For every model of `BENCH_MODELS` (bench/search-bench/models.ts; a model that reads
 * stored vectors gets every comment's vector made once per run, as at ingest, and that time is
 * printed apart):
 *
 * 1. Retrieval. Each query of the split against all its sections' relevant comments and
 *    DISTRACTORS simulated comments (default 20,000): recall@10 and MRR. With
 *    SEARCH_PARAPHRASE_PAIRS set to a TSV file of labelled paraphrase pairs, its pairs without a
 *    shared stem are a second retrieval set (see the comment-index README; not committed).
 * 2. Match sets, what a user sees. Each query against its own section's comments only (relevant,
 *    unrelated, near misses, the other queries' comments), keeping those scored above 0 and at or
 *    above a threshold: precision, recall and F1 per query, averaged over queries (macro), for
 *    thresholds 0.05 .. 0.95; the best threshold on the split, and the figures at the default
 *    `minRelevance`.
 *
 * The search at scale (100,000 comments, embedded or not) is bench/search-scale.ts; the figures
 * of the static-table hybrid this bench replaced are in bench/search-bench/BASELINE.md.
 *
 * --json <file> writes the figures; --check prints the data's size and checks it, and runs no model.
 */
import { existsSync, writeFileSync } from 'node:fs';
import type { SearchDocument } from '@analyst/comment-index';
import { BENCH_SECTIONS } from './search-bench/sections';
import type { BenchSplit } from './search-bench/section';
import { labelSection, type LabelledSection } from './search-bench/labelled-section';
import { checkSplitRule, checkUnique, nearMissesWithoutSharedStem } from './search-bench/data-checks';
import { BENCH_MODELS } from './search-bench/models';
import { cachedVectors, defaultMinRelevance, type BenchModel } from './search-bench/bench-model';
import { retrieval, type RetrievalFigures, type RetrievalQuery } from './search-bench/retrieval';
import { addPairsFromFile, retrievalPool } from './search-bench/retrieval-pool';
import { matchFigures, scoreSections, sweep, type MatchFigures } from './search-bench/match-sets';
import { simulatedBodies } from './search-bench/simulated-comments';

const DISTRACTORS = Number(process.env.DISTRACTORS ?? 20_000);

interface Options {
  split: BenchSplit;
  json?: string;
  models: readonly BenchModel[];
  check: boolean;
}

function options(argv: readonly string[]): Options {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const split = value('--split') ?? 'validation';
  if (split !== 'validation' && split !== 'test')
    throw new Error(`--split is validation or test, not ${split}`);
  const names = value('--models')?.split(',');
  const models = names ? BENCH_MODELS.filter((m) => names.includes(m.name)) : BENCH_MODELS;
  if (names && models.length !== names.length)
    throw new Error(
      `--models names ${names.join(',')}; the bench has ${BENCH_MODELS.map((m) => m.name).join(',')}`,
    );
  return { split, json: value('--json'), models, check: argv.includes('--check') };
}

interface DataFigures {
  sections: number;
  domains: number;
  queries: number;
  relevantComments: number;
  labels: number;
  droppedLabels: number;
  unrelated: number;
  nearMisses: number;
  comments: number;
}

function dataFigures(sections: readonly LabelledSection[]): DataFigures {
  const count = (kind: string) =>
    sections.reduce((n, s) => n + s.comments.filter((c) => c.kind === kind).length, 0);
  const queries = sections.flatMap((s) => s.queries);
  return {
    sections: sections.length,
    domains: new Set(sections.map((s) => s.domain)).size,
    queries: queries.filter((q) => q.relevant.length > 0).length,
    relevantComments: count('relevant'),
    labels: queries.reduce((n, q) => n + q.relevant.length, 0),
    droppedLabels: queries.reduce((n, q) => n + q.excluded.length, 0),
    unrelated: count('unrelated'),
    nearMisses: count('near-miss'),
    comments: sections.reduce((n, s) => n + s.comments.length, 0),
  };
}

function printData(split: string, d: DataFigures, sections: readonly LabelledSection[]) {
  console.log(
    `${split}: ${d.sections} sections in ${d.domains} domains, ${d.queries} queries, ${d.relevantComments} relevant ` +
      `comments (${d.labels} query-comment labels, ${d.droppedLabels} dropped for a shared stem), ` +
      `${d.unrelated} unrelated, ${d.nearMisses} near misses; ${d.comments} comments`,
  );
  for (const s of sections)
    for (const q of s.queries)
      for (const i of q.excluded) console.log(`  dropped (${s.id}): "${q.text}" / "${s.comments[i].text}"`);
}

const f3 = (x: number) => x.toFixed(3);

function printMatchRow(m: MatchFigures) {
  const fm = m.falseMatches;
  return (
    `${m.threshold.toFixed(2).padStart(9)}  ${f3(m.precision).padStart(9)}  ${f3(m.recall).padStart(6)}  ` +
    `${f3(m.f1).padStart(5)}  ${String(fm.relevant).padStart(5)} / ${String(fm.unrelated).padStart(5)} / ${String(fm['near-miss']).padStart(5)}`
  );
}

interface ModelFigures {
  name: string;
  minRelevance: number;
  /** Seconds to embed the retrieval pool once (models reading stored vectors). */
  embedSeconds?: number;
  retrieval: RetrievalFigures;
  pairs?: RetrievalFigures;
  matchSets: { rows: MatchFigures[]; best: MatchFigures; atDefault: MatchFigures };
}

async function runModel(
  bench: BenchModel,
  split: BenchSplit,
  sections: readonly LabelledSection[],
  pool: { docs: SearchDocument[]; queries: RetrievalQuery[]; pairs: RetrievalQuery[] },
): Promise<ModelFigures> {
  const model = await bench.create();
  const minRelevance = bench.minRelevance ?? defaultMinRelevance();
  console.log(`\n== ${bench.name} (${model.name}), default minRelevance ${minRelevance}`);
  const vectors = bench.storedVectors && cachedVectors(bench.storedVectors);
  let docs = pool.docs;
  let embedSeconds: number | undefined;
  if (vectors) {
    const started = Date.now();
    const stored = await vectors(docs.map((d) => d.text));
    docs = docs.map((d, i) => ({ ...d, vector: stored[i] }));
    embedSeconds = (Date.now() - started) / 1000;
    console.log(
      `stored vectors: ${docs.length} comments embedded in ${embedSeconds.toFixed(1)} s (not in the figures below)`,
    );
  }
  const r = await retrieval(model, pool.queries, docs);
  console.log(
    `retrieval: recall@10 ${f3(r.recallAt10)}  MRR ${f3(r.mrr)}  ` +
      `(${r.queries} queries, ${r.relevant} relevant, ${DISTRACTORS} distractors; ${r.seconds.toFixed(1)} s)`,
  );
  let pairs: RetrievalFigures | undefined;
  if (pool.pairs.length > 0) {
    pairs = await retrieval(model, pool.pairs, docs);
    console.log(
      `retrieval, pairs file: recall@10 ${f3(pairs.recallAt10)}  MRR ${f3(pairs.mrr)}  (${pairs.queries} pairs)`,
    );
  }
  const scored = await scoreSections(model, sections, vectors);
  await bench.close?.();
  const { rows, best } = sweep(scored);
  const atDefault = matchFigures(scored, minRelevance);
  console.log(
    `match sets, each query over its own section (${scored.length} queries, ${sections.length} sections), macro means:\n` +
      `threshold  precision  recall     F1  false matches: other queries' / unrelated / near misses`,
  );
  for (const row of rows) console.log(printMatchRow(row));
  console.log(`best on ${split}: threshold ${best.threshold.toFixed(2)}, F1 ${f3(best.f1)}`);
  console.log(
    `at the default ${minRelevance}: precision ${f3(atDefault.precision)}, recall ${f3(atDefault.recall)}, F1 ${f3(atDefault.f1)}`,
  );
  return {
    name: bench.name,
    minRelevance,
    embedSeconds,
    retrieval: r,
    pairs,
    matchSets: { rows, best, atDefault },
  };
}

async function main() {
  const opts = options(process.argv.slice(2));
  checkSplitRule(BENCH_SECTIONS);
  checkUnique(BENCH_SECTIONS);
  for (const line of nearMissesWithoutSharedStem(BENCH_SECTIONS))
    console.log(`near miss without a query's stem: ${line}`);
  const bySplit = (split: BenchSplit) => BENCH_SECTIONS.filter((s) => s.split === split).map(labelSection);
  if (opts.check) {
    for (const split of ['validation', 'test'] as const)
      printData(split, dataFigures(bySplit(split)), bySplit(split));
    return;
  }
  const sections = bySplit(opts.split);
  const data = dataFigures(sections);
  printData(opts.split, data, sections);

  const { docs, queries } = retrievalPool(simulatedBodies(DISTRACTORS), sections);
  const file = process.env.SEARCH_PARAPHRASE_PAIRS;
  const pairs = file && existsSync(file) ? addPairsFromFile(file, docs) : [];

  const models: ModelFigures[] = [];
  for (const m of opts.models) models.push(await runModel(m, opts.split, sections, { docs, queries, pairs }));

  if (opts.json) {
    const figures = {
      bench: 'bench/search-paraphrase.ts',
      date: new Date().toISOString(),
      split: opts.split,
      distractors: DISTRACTORS,
      data,
      models,
    };
    writeFileSync(opts.json, JSON.stringify(figures, null, 2) + '\n');
    console.log(`\nfigures written to ${opts.json}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
