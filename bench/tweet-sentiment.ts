// 3-class sentiment of tweets (negative / neutral / positive) scored by macro-averaged recall, the
// measure of TweetEval's sentiment task (SemEval-2017 Task 4A): the product's v1 buckets (negative and
// lean_negative → negative, neutral → neutral, lean_positive and positive → positive; unscored → neutral),
// read by the trained model blended with VADER, next to VADER's compound alone with the band the product
// used before the model (-0.075 .. 0.35), the former fixed band (-0.125 .. 0.1) and VADER's own ±0.05.
// The model's blend and band were calibrated on the validation split only; the test split is reported,
// never tuned on. Tweets are read as the characters a comment would hold: some validation tweets were
// exported with \u2019-style escapes and HTML entities (&amp;), decoded here as in the training script.
// Run: ANALYST_EVAL_DATA=/path npm run bench -- bench/tweet-sentiment.ts [val|test] (both splits by default;
// `val` while choosing, so the test split is read only when a choice is final)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bucketOf } from '@analyst/contracts';
import {
  detectLanguage,
  isReadableLanguage,
  replaceEmoji,
  sentimentOf,
  vaderCompound,
} from '@analyst/scoring';

const HOW_TO = `ANALYST_EVAL_DATA is not set. It names a directory with a tweeteval/ folder holding
{val,test}_text.txt and {val,test}_labels.txt of TweetEval's sentiment task (0 negative, 1 neutral, 2 positive):
  github.com/cardiffnlp/tweeteval, datasets/sentiment/ (copy the four files into $ANALYST_EVAL_DATA/tweeteval/).
Do not commit them.`;

type Label = 0 | 1 | 2;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** A tweet as its writer typed it: \uXXXX escapes, numeric HTML entities and the common named ones decoded. */
function decodeExport(text: string): string {
  return text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name]);
}

function macroRecall(gold: Label[], predicted: Label[]): number {
  const hit = [0, 0, 0];
  const count = [0, 0, 0];
  gold.forEach((g, i) => {
    count[g]++;
    if (predicted[i] === g) hit[g]++;
  });
  return (hit[0] / count[0] + hit[1] / count[1] + hit[2] / count[2]) / 3;
}

/** The product: the v1 sentiment bucket of the stored reading. */
function productLabel(text: string): Label {
  const s = sentimentOf(text);
  if (Number.isNaN(s)) return 1;
  const bucket = bucketOf('sentiment', s, 1);
  return bucket === 'negative' || bucket === 'lean_negative' ? 0 : bucket === 'neutral' ? 1 : 2;
}

function compoundBand(lo: number, hi: number): (text: string) => Label {
  return (text) => {
    const c = isReadableLanguage(detectLanguage(text)) ? vaderCompound(replaceEmoji(text)) : 0;
    return c < lo ? 0 : c >= hi ? 2 : 1;
  };
}

function main(): void {
  const dir = process.env.ANALYST_EVAL_DATA ? join(process.env.ANALYST_EVAL_DATA, 'tweeteval') : '';
  if (!dir || !existsSync(dir)) {
    console.log(HOW_TO);
    process.exitCode = process.env.ANALYST_EVAL_DATA ? 1 : 0;
    return;
  }
  const scorers: [string, (text: string) => Label][] = [
    ['Analyst v1 buckets (trained model + VADER)', productLabel],
    ['VADER alone, band -0.075 .. 0.35 (before the model)', compoundBand(-0.075, 0.35)],
    ['former band (compound -0.125 .. 0.1)', compoundBand(-0.125, 0.1)],
    ['VADER ±0.05', compoundBand(-0.05, 0.05)],
  ];
  const asked = process.argv[2];
  for (const split of asked === 'val' || asked === 'test' ? [asked] : ['val', 'test']) {
    const textPath = join(dir, `${split}_text.txt`);
    if (!existsSync(textPath)) continue;
    const texts = readFileSync(textPath, 'utf8').split('\n').map(decodeExport);
    const gold = readFileSync(join(dir, `${split}_labels.txt`), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => Number(l) as Label);
    const n = gold.length;
    const line = scorers.map(
      ([name, score]) => `${name} ${(100 * macroRecall(gold, texts.slice(0, n).map(score))).toFixed(1)}`,
    );
    console.log(`${split} (n=${n}): ${line.join(' | ')}`);
  }
}

main();
