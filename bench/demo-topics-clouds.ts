// The creator topics and word cloud of the demo data (the 60 posts `npm start` adds, read from the
// simulated provider and scored by the lexicon scorer): every post's topics, how often each topic
// title occurs, and the top words and phrases of one cloud over all visible comments (v2 readings).
// Prints what the scoring README's creator topics section and the report on cloud filler quote.
// Run: npm run bench -- bench/demo-topics-clouds.ts [top=25]
import { appendRow, createColumns, allRows, Vocabulary, wordCloud } from '@analyst/domain-analysis';
import { DEMO_LINKS } from '@analyst/ingest';
import { SimulatedProvider } from '@analyst/provider-sim';
import { LexiconScorer } from '@analyst/scoring';

const TOP = Number(process.argv[2] ?? 25);

// The link ranges of seedDemoContent (libs/ingest/src/demo/seed-demo-content.ts).
const links = (platforms: string[], from: number, each: number) =>
  platforms.flatMap((p) => Array.from({ length: each }, (_, i) => DEMO_LINKS[p](from + i)));
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
  const vocab = new Vocabulary();
  const columns = createColumns(16_000);
  const titles = new Map<string, number>();
  for (const link of LINKS) {
    const fetched = await provider.fetchPost(link, { fullRead: false });
    if (fetched.status !== 'ok') continue;
    const out = scorer.scorePost(fetched.post, fetched.comments);
    console.log(`${out.topics.map((t) => t.title).join(' | ')}    <- ${fetched.post.title}`);
    for (const t of out.topics) titles.set(t.title, (titles.get(t.title) ?? 0) + 1);
    out.comments.forEach((c, i) => {
      const comment = fetched.comments[i];
      if (comment.hidden) return;
      appendRow(columns, { scores: c.scores, tokens: vocab.encode(comment.body) });
    });
  }
  const byCount = [...titles.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  console.log(
    `\n${byCount.length} distinct topic titles: ${byCount.map(([t, n]) => `${t} ${n}`).join(', ')}`,
  );
  const cloud = wordCloud(columns, allRows(columns), vocab, 2);
  const show = (type: 'word' | 'phrase') =>
    cloud
      .filter((w) => w.type === type)
      .slice(0, TOP)
      .map((w) => `${w.text} ${w.value}`)
      .join(', ');
  console.log(`\ncloud over ${columns.length} visible comments`);
  console.log(`top words: ${show('word')}`);
  console.log(`top phrases: ${show('phrase')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
