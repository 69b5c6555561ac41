// The sentiment mix of the demo data (the 60 posts `npm start` adds, read from the simulated provider
// and scored by the lexicon scorer) under score versions 1 and 3: the share of every bucket and of
// unscored comments. Prints the figures the scoring README's "demo mix" rows quote.
// Run: npm run bench -- bench/demo-mix.ts
import { SimulatedProvider } from '@analyst/provider-sim';
import { LexiconScorer } from '@analyst/scoring';
import { commentBuckets } from '@analyst/domain-analysis';

const pad = (n: number, width: number) => String(n).padStart(width, '0');
// The demo links of libs/ingest/src/demo/seed-demo-content.ts.
const DEMO: Record<string, (n: number) => string> = {
  youtube: (n) => `https://www.youtube.com/watch?v=demoVid${pad(n, 4)}`,
  tiktok: (n) => `https://www.tiktok.com/@demo.creator/video/74${pad(n, 17)}`,
  instagram: (n) => `https://www.instagram.com/p/DemoPost${pad(n, 3)}/`,
  facebook: (n) => `https://www.facebook.com/demopage/posts/9${pad(n, 8)}`,
  x: (n) => `https://x.com/demo_brand/status/19${pad(n, 17)}`,
  reddit: (n) => `https://www.reddit.com/r/demo/comments/dm${pad(n, 4)}/demo_thread/`,
  linkedin: (n) => `https://www.linkedin.com/feed/update/urn:li:activity:72${pad(n, 17)}/`,
  threads: (n) => `https://www.threads.net/@demo.brand/post/DemoThr${pad(n, 4)}`,
};
const links = (platforms: string[], from: number, each: number) =>
  platforms.flatMap((p) => Array.from({ length: each }, (_, i) => DEMO[p](from + i)));
const LINKS = [
  ...links(['youtube', 'tiktok', 'instagram', 'x'], 1, 3),
  ...links(['youtube', 'tiktok', 'instagram'], 10, 3),
  ...links(['x', 'threads', 'facebook'], 20, 3),
  ...links(['reddit', 'linkedin', 'facebook', 'threads'], 30, 3),
  ...links(['reddit', 'linkedin'], 40, 5),
  ...links(['tiktok', 'youtube', 'instagram', 'x'], 50, 2),
];

async function main(): Promise<void> {
  const provider = new SimulatedProvider();
  const scorer = new LexiconScorer();
  const counts = { 1: new Map<string, number>(), 3: new Map<string, number>() } as Record<
    1 | 3,
    Map<string, number>
  >;
  let total = 0;
  for (const link of LINKS) {
    const fetched = await provider.fetchPost(link, { fullRead: false });
    if (fetched.status !== 'ok') continue;
    const { comments } = scorer.scorePost(fetched.post, fetched.comments);
    comments.forEach((c, i) => {
      if (fetched.comments[i].hidden) return;
      total++;
      for (const v of [1, 3] as const) {
        const bucket = commentBuckets(c.scores, v).sentiment ?? 'unscored';
        counts[v].set(bucket, (counts[v].get(bucket) ?? 0) + 1);
      }
    });
  }
  const order = ['negative', 'lean_negative', 'neutral', 'lean_positive', 'positive', 'unscored'];
  console.log(`demo data: ${LINKS.length} posts, ${total} visible comments`);
  for (const v of [1, 3] as const) {
    const line = order
      .filter((b) => counts[v].has(b))
      .map((b) => `${b} ${((100 * counts[v].get(b)!) / total).toFixed(1)}%`);
    console.log(`v${v} sentiment mix: ${line.join(', ')}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
