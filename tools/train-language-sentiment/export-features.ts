// Writes the features the product's per-language heads read (libs/scoring/src/languages/
// sentiment-features.ts) for the XLM-T sentiment splits, in svmlight format, for train.py.
// Run: ANALYST_EVAL_DATA=/path npm run bench -- tools/train-language-sentiment/export-features.ts <out-dir>
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceEmoji } from '../../libs/scoring/src/emoji';
import { HEAD_LANGUAGES, type HeadLanguage } from '../../libs/scoring/src/languages/negation-cues';
import { sentimentFeatures } from '../../libs/scoring/src/languages/sentiment-features';

export const XLM_T_FOLDER: Record<HeadLanguage, string> = {
  es: 'spanish',
  pt: 'portuguese',
  fr: 'french',
  de: 'german',
  it: 'italian',
};
const SPLITS = ['train', 'val', 'test'] as const;

function readLines(path: string): string[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function main(): void {
  const data = process.env.ANALYST_EVAL_DATA ? join(process.env.ANALYST_EVAL_DATA, 'xlm-t') : '';
  const out = process.argv[2];
  if (!data || !existsSync(data) || !out) {
    console.log('usage: ANALYST_EVAL_DATA=<dir holding xlm-t/<language>/> ... export-features.ts <out-dir>');
    process.exitCode = 1;
    return;
  }
  mkdirSync(out, { recursive: true });
  for (const language of HEAD_LANGUAGES) {
    for (const split of SPLITS) {
      const folder = join(data, XLM_T_FOLDER[language]);
      const texts = readLines(join(folder, `${split}_text.txt`));
      const labels = readLines(join(folder, `${split}_labels.txt`));
      const rows = labels.map((label, i) => {
        const { indices, values } = sentimentFeatures(replaceEmoji(texts[i]), language);
        return `${label.trim()} ${indices.map((index, k) => `${index}:${values[k].toPrecision(6)}`).join(' ')}`;
      });
      writeFileSync(join(out, `${language}.${split}.svm`), rows.join('\n') + '\n');
      console.log(`${language} ${split}: ${rows.length} rows`);
    }
  }
}

main();
