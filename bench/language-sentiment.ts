// 3-class sentiment of tweets in Spanish, Portuguese, French, German and Italian, scored by macro-F1
// (the measure of XLM-T's UMSAB benchmark) through the product path: sentimentOf(text) → the v1 bucket
// (negative and lean_negative → negative, neutral → neutral, lean_positive and positive → positive).
// An unscored text (detected as a language the scorer does not read) counts as neutral; how many
// were unscored, and how many were detected as the set's own language or as English / undetermined
// (then read by the English reader), is printed beside. The heads were trained on the train split and
// calibrated on val; test is reported, never tuned on.
// Run: ANALYST_EVAL_DATA=/path npm run bench -- bench/language-sentiment.ts
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bucketOf } from '@analyst/contracts';
import { detectLanguage, sentimentOf } from '@analyst/scoring';

const HOW_TO = `ANALYST_EVAL_DATA is not set. It names a directory with an xlm-t/ folder holding, for each of
spanish, portuguese, french, german and italian, {train,val,test}_text.txt and {train,val,test}_labels.txt
(0 negative, 1 neutral, 2 positive):
  github.com/cardiffnlp/xlm-t, data/sentiment/<language>/ (copy the five folders into $ANALYST_EVAL_DATA/xlm-t/).
Do not commit them.`;

const SETS: [string, string][] = [
  ['es', 'spanish'],
  ['pt', 'portuguese'],
  ['fr', 'french'],
  ['de', 'german'],
  ['it', 'italian'],
];

type Label = 0 | 1 | 2;

function macroF1(gold: Label[], predicted: Label[]): number {
  let sum = 0;
  for (const c of [0, 1, 2]) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    gold.forEach((g, i) => {
      if (predicted[i] === c && g === c) tp++;
      else if (predicted[i] === c) fp++;
      else if (g === c) fn++;
    });
    sum += tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  }
  return sum / 3;
}

function readLines(path: string): string[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function main(): void {
  const dir = process.env.ANALYST_EVAL_DATA ? join(process.env.ANALYST_EVAL_DATA, 'xlm-t') : '';
  if (!dir || !existsSync(dir)) {
    console.log(HOW_TO);
    process.exitCode = process.env.ANALYST_EVAL_DATA ? 1 : 0;
    return;
  }
  for (const [code, folder] of SETS) {
    for (const split of ['val', 'test']) {
      const textPath = join(dir, folder, `${split}_text.txt`);
      if (!existsSync(textPath)) continue;
      const texts = readLines(textPath);
      const gold = readLines(join(dir, folder, `${split}_labels.txt`)).map((l) => Number(l) as Label);
      let unscored = 0;
      let own = 0;
      let english = 0;
      const predicted = gold.map((_, i): Label => {
        const language = detectLanguage(texts[i]);
        if (language === code) own++;
        else if (language === null || language === 'en') english++;
        const s = sentimentOf(texts[i]);
        if (Number.isNaN(s)) {
          unscored++;
          return 1;
        }
        const bucket = bucketOf('sentiment', s, 1);
        return bucket === 'negative' || bucket === 'lean_negative' ? 0 : bucket === 'neutral' ? 1 : 2;
      });
      console.log(
        `${code} ${split} (n=${gold.length}): macro-F1 ${(100 * macroF1(gold, predicted)).toFixed(1)} | ` +
          `detected ${code} ${own}, English or undetermined ${english}, unscored ${unscored}`,
      );
    }
  }
}

main();
