// Writes the sentiment model's features of each text, through the same code the scorer runs
// (libs/scoring/src/sentiment-model/features.ts), for train.py to fit on.
// Input: one JSON string per line. Output, one line per text: compound, signal (0/1), whether the scorer
// reads the text by VADER alone (0/1: emoji-led or with slang, english-sentiment.ts), then the dense values
// and the hashed buckets, tab-separated (values and buckets space-separated).
// Run: SWC_NODE_PROJECT=tsconfig.json node -r @swc-node/register tools/train-sentiment/dump-features.ts in.jsonl out.tsv
import { readFileSync, writeFileSync } from 'node:fs';
// Straight to the modules, not the barrel: the barrel loads the model, which needs the weights this trains.
import { replaceEmoji } from '../../libs/scoring/src/emoji';
import { readsVaderAlone } from '../../libs/scoring/src/english-features';
import { extractFeatures, newFeatures } from '../../libs/scoring/src/sentiment-model/features';
import { vaderReading } from '../../libs/scoring/src/vader';

function main(): void {
  const [input, output] = process.argv.slice(2);
  const features = newFeatures();
  const lines: string[] = [];
  for (const line of readFileSync(input, 'utf8').split('\n')) {
    if (line === '') continue;
    const text = replaceEmoji(JSON.parse(line) as string);
    const { compound, signal, slang } = vaderReading(text);
    extractFeatures(text, compound, signal, features);
    const buckets = Array.from(features.buckets.subarray(0, features.count)).join(' ');
    const vaderAlone = readsVaderAlone(features, slang);
    const dense = Array.from(features.dense).join(' ');
    lines.push(`${compound}\t${signal ? 1 : 0}\t${vaderAlone ? 1 : 0}\t${dense}\t${buckets}`);
  }
  writeFileSync(output, lines.join('\n') + '\n');
}

main();
