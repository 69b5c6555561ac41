/**
 * Ingest bench: scoring throughput of the lexicon scorer, and the end-to-end time for 100 posts
 * with 1,000 comments each, from the add request until the job is completed, on the standalone
 * adapters (SQLite event store, in-process bus, in-memory read models) with the simulated provider.
 *
 *   SWC_NODE_PROJECT=tsconfig.json node -r @swc-node/register bench/ingest.ts [posts=100] [comments=1000]
 */
import 'reflect-metadata';
import { GatewayModule } from '@analyst/gateway';
import { IngestModule } from '@analyst/ingest';
import { LedgerModule } from '@analyst/ledger';
import { SystemClock } from '@analyst/platform';
import { SimulatedProvider, simulatedCommentCount } from '@analyst/provider-sim';
import { LexiconScorer } from '@analyst/scoring';
import { createTestApp } from '@analyst/testing';
import type { FetchedComment, ProviderPost } from '@analyst/contracts';

const POSTS = Number(process.argv[2] ?? 100);
const COMMENTS = Number(process.argv[3] ?? 1000);

/** The first `n` simulated YouTube links whose comment section holds at least `comments` comments. */
function bigLinks(n: number, comments: number): string[] {
  const links: string[] = [];
  for (let i = 0; links.length < n; i++) {
    const link = `https://www.youtube.com/watch?v=bench${String(i).padStart(6, '0')}`;
    if ((simulatedCommentCount(link) ?? 0) >= comments) links.push(link);
  }
  return links;
}

async function scoringThroughput(links: string[]): Promise<void> {
  const provider = new SimulatedProvider();
  const scorer = new LexiconScorer();
  const sections: { post: ProviderPost; comments: FetchedComment[] }[] = [];
  for (const link of links) {
    const result = await provider.fetchPost(link, { fullRead: false, commentLimit: COMMENTS });
    if (result.status !== 'ok') throw new Error(`${link}: ${result.status}`);
    sections.push({ post: result.post, comments: result.comments });
  }
  scorer.scorePost(sections[0].post, sections[0].comments.slice(0, 100)); // warm up
  const total = sections.reduce((n, s) => n + s.comments.length, 0);
  const started = process.hrtime.bigint();
  for (const s of sections) scorer.scorePost(s.post, s.comments);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(
    `scoring: ${total.toLocaleString('en')} comments in ${seconds.toFixed(2)} s = ${Math.round(total / seconds).toLocaleString('en')} comments/s (${scorer.name} ${scorer.version})`,
  );
}

async function endToEnd(links: string[]): Promise<void> {
  const t = await createTestApp({
    modules: [GatewayModule, LedgerModule, IngestModule],
    clock: new SystemClock(),
  });
  try {
    const team = await t.admin('POST', '/admin/v1/teams', { name: 'Bench', plan: 'enterprise' });
    const teamId = team.body.data.id as string;
    await t.admin('POST', `/admin/v1/teams/${teamId}/credits`, {
      pool: 'adhoc',
      amount: 10_000,
      reason: 'bench',
    });
    const key = (
      await t.admin('POST', `/admin/v1/teams/${teamId}/keys`, {
        name: 'bench',
        scopes: ['posts:write', 'posts:read'],
      })
    ).body.data.key as string;
    const headers = { authorization: `Bearer ${key}` };
    const started = Date.now();
    const added = await t.request('POST', '/analyst/v1/content/posts/add', {
      headers,
      body: { links, capture: { commentLimit: COMMENTS }, credits: { source: 'adhoc' } },
    });
    if (added.status !== 202) throw new Error(`add: ${added.status} ${added.raw}`);
    const accepted = Date.now() - started;
    const jobId = added.body.data.id as string;
    let job = added.body.data;
    while (!['completed', 'partial', 'failed'].includes(job.status)) {
      await new Promise((r) => setTimeout(r, 25));
      job = (await t.request('GET', `/analyst/v1/content/jobs/${jobId}`, { headers })).body.data;
    }
    const seconds = (Date.now() - started) / 1000;
    const comments = job.accepted.length * COMMENTS;
    console.log(
      `end to end: ${job.accepted.length} posts x ${COMMENTS.toLocaleString('en')} comments, add request answered in ${accepted} ms, ` +
        `job ${job.status} after ${seconds.toFixed(2)} s (${Math.round(comments / seconds).toLocaleString('en')} comments/s through fetch, events, read models, scoring and settlement)`,
    );
    console.log(`credits: ${JSON.stringify(job.credits)}`);
  } finally {
    await t.close();
  }
}

async function main(): Promise<void> {
  const links = bigLinks(POSTS, COMMENTS);
  await scoringThroughput(links);
  await endToEnd(links);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
