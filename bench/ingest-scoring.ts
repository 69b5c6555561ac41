// Comment scoring throughput: the lexicon scorer over 100 simulated posts × 1,000 comments each,
// on one core. Comments are generated before timing starts; the timed part is scorePost only.
// Run: SWC_NODE_PROJECT=tsconfig.json node -r @swc-node/register bench/ingest-scoring.ts [posts=100] [comments=1000]
import type { FetchedComment, ProviderPost } from '@analyst/contracts';
import { SimulatedProvider, simulatedCommentCount } from '@analyst/provider-sim';
import { LexiconScorer, portCompound, vaderCompound } from '@analyst/scoring';

const POSTS = Number(process.argv[2] ?? 100);
const PER_POST = Number(process.argv[3] ?? 1000);

function seconds(startedNs: bigint): number {
  return Number(process.hrtime.bigint() - startedNs) / 1e9;
}

function buildCorpus(): { post: ProviderPost; comments: FetchedComment[] }[] {
  const provider = new SimulatedProvider();
  const corpus: { post: ProviderPost; comments: FetchedComment[] }[] = [];
  const platforms = [
    (i: number) => `https://youtube.com/watch?v=bench${String(i).padStart(6, '0')}`,
    (i: number) => `https://x.com/bench${i}/status/${1790000000000000000 + i}`,
    (i: number) => `https://tiktok.com/@bench${i}/video/${7300000000000000000 + i}`,
    (i: number) => `https://instagram.com/p/Bench${String(i).padStart(6, '0')}`,
  ];
  for (let i = 0; corpus.length < POSTS; i++) {
    const link = platforms[i % platforms.length](i);
    if ((simulatedCommentCount(link) ?? 0) < PER_POST) continue;
    const result = provider.fetchPostSync(link, { fullRead: false, commentLimit: PER_POST });
    if (result.status === 'ok') corpus.push({ post: result.post, comments: result.comments });
  }
  return corpus;
}

function main(): void {
  const corpus = buildCorpus();
  const total = corpus.reduce((n, p) => n + p.comments.length, 0);
  const scorer = new LexiconScorer();

  // Warm-up on a fresh scorer so JIT and caches look like a long-running worker's.
  for (const { post, comments } of corpus.slice(0, 5)) scorer.scorePost(post, comments);

  const runs: number[] = [];
  for (let r = 0; r < 3; r++) {
    const started = process.hrtime.bigint();
    for (const { post, comments } of corpus) scorer.scorePost(post, comments);
    runs.push(total / seconds(started));
  }
  runs.sort((a, b) => a - b);
  console.log(
    `scorePost: ${POSTS} posts × ${PER_POST} comments = ${total} comments; median of 3 runs ${Math.round(runs[1])} comments/s (runs ${runs.map(Math.round).join(', ')})`,
  );

  // VADER alone: the npm port's polarity_scores vs the product's engine (vader.ts) on the same bodies.
  const bodies = corpus.flatMap((p) => p.comments.map((c) => c.body)).slice(0, 20_000);
  let started = process.hrtime.bigint();
  for (const b of bodies) portCompound(b);
  const reference = bodies.length / seconds(started);
  started = process.hrtime.bigint();
  for (const b of bodies) vaderCompound(b);
  const fast = bodies.length / seconds(started);
  console.log(
    `VADER only: vader-sentiment polarity_scores ${Math.round(reference)} texts/s; the product's engine (reference 3.3.2 rules, one pass) ${Math.round(fast)} texts/s`,
  );
}

main();
