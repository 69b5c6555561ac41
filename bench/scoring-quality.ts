// Scoring quality on the four human-rated sets of the VADER paper (Hutto & Gilbert 2014), the product's
// sentimentOf (trained model blended with VADER) next to VADER's reference rules alone (the product
// before the model) and the npm port (vader-sentiment), plus speed. The data is never committed.
// Run: ANALYST_EVAL_DATA=/path/to/dir npm run bench -- bench/scoring-quality.ts
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { portCompound, replaceEmoji, scoreToCompound, sentimentOf, vaderCompound } from '@analyst/scoring';

const HOW_TO = `ANALYST_EVAL_DATA is not set. It names a directory holding the VADER ground-truth files:
  tweets_GroundTruth.txt, movieReviewSnippets_GroundTruth.txt, amazonReviewSnippets_GroundTruth.txt,
  nytEditorialSnippets_GroundTruth.txt  (tab-separated: id, human mean -4..4, text)
They are in github.com/cjhutto/vaderSentiment, additional_resources/hutto_ICWSM_2014.tar.gz:
  curl -LO https://github.com/cjhutto/vaderSentiment/raw/master/additional_resources/hutto_ICWSM_2014.tar.gz
  mkdir vader-eval && tar xzf hutto_ICWSM_2014.tar.gz -C vader-eval
  ANALYST_EVAL_DATA=$PWD/vader-eval npm run bench -- bench/scoring-quality.ts
(The files may sit in a subdirectory; it is searched.) Do not commit them.`;

const SETS: [string, string][] = [
  ['tweets', 'tweets_GroundTruth.txt'],
  ['movie', 'movieReviewSnippets_GroundTruth.txt'],
  ['amazon', 'amazonReviewSnippets_GroundTruth.txt'],
  ['NYT', 'nytEditorialSnippets_GroundTruth.txt'],
];

interface Item {
  mean: number;
  text: string;
}

function find(dir: string, name: string): string | null {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return path;
    if (entry.isDirectory()) {
      const found = find(path, name);
      if (found) return found;
    }
  }
  return null;
}

function load(path: string): Item[] {
  const items: Item[] = [];
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const [, mean, ...text] = line.split('\t');
    if (mean === undefined || Number.isNaN(Number(mean))) continue;
    items.push({ mean: Number(mean), text: text.join('\t') });
  }
  return items;
}

export function pearson(x: number[], y: number[]): number {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** Macro-F1 of positive vs negative over texts with |human mean| ≥ 0.2; a neutral prediction (class 0) is a miss. */
export function macroF1(gold: number[], predicted: (-1 | 0 | 1)[]): number {
  const f1 = (cls: -1 | 1): number => {
    let tp = 0,
      fp = 0,
      fn = 0;
    gold.forEach((g, i) => {
      const gc = g >= 0.2 ? 1 : g <= -0.2 ? -1 : 0;
      if (gc === 0) return;
      if (predicted[i] === cls && gc === cls) tp++;
      else if (predicted[i] === cls) fp++;
      else if (gc === cls) fn++;
    });
    return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  };
  return (f1(1) + f1(-1)) / 2;
}

/** The product's 1-10 reading back on the compound scale (scoreToCompound, the inverse of compoundToScore); NaN (unscored) as 0. */
function productCompound(text: string): number {
  const s = sentimentOf(text);
  return Number.isNaN(s) ? 0 : scoreToCompound(s);
}

const classOf = (c: number): -1 | 0 | 1 => (c >= 0.05 ? 1 : c <= -0.05 ? -1 : 0);

function evaluate(
  items: Item[],
  score: (text: string) => number,
): { r: number; f1: number; perSecond: number } {
  const started = process.hrtime.bigint();
  const predicted = items.map((it) => score(it.text));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    r: pearson(
      predicted,
      items.map((it) => it.mean),
    ),
    f1: macroF1(
      items.map((it) => it.mean),
      predicted.map(classOf),
    ),
    perSecond: items.length / seconds,
  };
}

function main(): void {
  const dir = process.env.ANALYST_EVAL_DATA;
  if (!dir || !existsSync(dir)) {
    console.log(HOW_TO);
    process.exitCode = dir ? 1 : 0;
    return;
  }
  const scorers: [string, (text: string) => number][] = [
    ['Analyst (sentimentOf)', productCompound],
    ['VADER reference rules alone (vaderCompound)', (text) => vaderCompound(replaceEmoji(text))],
    ['vader-sentiment (npm port)', portCompound],
  ];
  const rows: string[][] = scorers.map(([name]) => [name]);
  const speed: number[][] = scorers.map(() => []);
  const header = ['scorer'];
  for (const [label, file] of SETS) {
    const path = find(dir, file);
    if (!path) {
      console.log(`${file} not found under ${dir}`);
      continue;
    }
    const items = load(path);
    header.push(`${label} r / F1 (n=${items.length})`);
    scorers.forEach(([, score], k) => {
      score(items[0].text); // warm-up
      const m = evaluate(items, score);
      rows[k].push(`${m.r.toFixed(4)} / ${m.f1.toFixed(4)}`);
      speed[k].push(m.perSecond);
    });
  }
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  scorers.forEach(([name], k) =>
    console.log(
      `${name}: ${speed[k].map((s) => Math.round(s).toLocaleString('en')).join(', ')} texts/s per set`,
    ),
  );
}

main();
