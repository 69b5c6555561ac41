// What the spam reading costs a comment: isSpam over the simulated corpus of bench/ingest-scoring.ts
// (20 posts × 1,000 comments), in microseconds a comment on one core, median of 9 rounds. With
// SPAM_BASELINE naming another checkout's libs/scoring/src/spam.ts (a worktree of an earlier commit),
// that reading is timed in the same rounds, alternating, and the two are printed side by side:
//   git worktree add --detach /tmp/before <commit> && ln -s $PWD/node_modules /tmp/before/node_modules
//   SPAM_BASELINE=/tmp/before/libs/scoring/src/spam.ts npm run bench -- bench/spam-cost.ts
import { SimulatedProvider, simulatedCommentCount } from '@analyst/provider-sim';
import { isSpam } from '../libs/scoring/src/spam';

const POSTS = 20;
const PER_POST = 1000;
const ROUNDS = 9;

type SpamReading = (lower: string) => boolean;

/** The four platforms of bench/ingest-scoring.ts, in turn. */
const PLATFORMS = [
  (i: number) => `https://youtube.com/watch?v=bench${String(i).padStart(6, '0')}`,
  (i: number) => `https://x.com/bench${i}/status/${1790000000000000000 + i}`,
  (i: number) => `https://tiktok.com/@bench${i}/video/${7300000000000000000 + i}`,
  (i: number) => `https://instagram.com/p/Bench${String(i).padStart(6, '0')}`,
];

function bodies(): string[] {
  const provider = new SimulatedProvider();
  const out: string[] = [];
  for (let i = 0, posts = 0; posts < POSTS; i++) {
    const link = PLATFORMS[i % PLATFORMS.length](i);
    if ((simulatedCommentCount(link) ?? 0) < PER_POST) continue;
    const result = provider.fetchPostSync(link, { fullRead: false, commentLimit: PER_POST });
    if (result.status !== 'ok') continue;
    out.push(...result.comments.map((c) => c.body.toLowerCase()));
    posts++;
  }
  return out;
}

/** Microseconds a comment for one pass over every body; the count of spam keeps the work from being dropped. */
function time(read: SpamReading, lowered: readonly string[]): { micros: number; spam: number } {
  let spam = 0;
  const started = process.hrtime.bigint();
  for (const body of lowered) if (read(body)) spam++;
  return { micros: Number(process.hrtime.bigint() - started) / 1e3 / lowered.length, spam };
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const lowered = bodies();
  const readings: { name: string; read: SpamReading }[] = [{ name: 'this checkout', read: isSpam }];
  const baseline = process.env.SPAM_BASELINE;
  if (baseline) {
    const module = (await import(baseline)) as { isSpam: SpamReading };
    readings.unshift({ name: `baseline (${baseline})`, read: module.isSpam });
  }
  for (const r of readings) time(r.read, lowered.slice(0, 5000));
  const micros = readings.map(() => [] as number[]);
  const spam = readings.map(() => 0);
  for (let round = 0; round < ROUNDS; round++)
    readings.forEach((r, i) => {
      const t = time(r.read, lowered);
      micros[i].push(t.micros);
      spam[i] = t.spam;
    });
  console.log(`isSpam over ${lowered.length} simulated comments, median of ${ROUNDS} alternating rounds:`);
  readings.forEach((r, i) =>
    console.log(
      `  ${r.name}: ${median(micros[i]).toFixed(2)} µs a comment (rounds ${micros[i].map((m) => m.toFixed(2)).join(', ')}); ${spam[i]} read as spam`,
    ),
  );
}

void main();
