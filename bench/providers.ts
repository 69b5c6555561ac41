/**
 * Provider bench: comments fetched per second over HTTP from the local YouTube and Reddit fakes,
 * and YouTube quota units per 1,000 comments, for two section shapes (few replies, many replies).
 *
 *   npm run bench -- bench/providers.ts [comments=10000]
 */
import { TelemetryTally } from '@analyst/provider-core';
import { RedditProvider } from '@analyst/provider-reddit';
import { YouTubeProvider } from '@analyst/provider-youtube';
import { RedditFake, YouTubeFake, comment, threadPost, threads, video } from '@analyst/testing';

const COMMENTS = Number(process.argv[2] ?? 10_000);

async function youtube(label: string, repliesPerThread: number): Promise<void> {
  const fake = new YouTubeFake();
  await fake.start();
  const perThread = 1 + repliesPerThread;
  fake.addChannel({ id: 'UCabcdefghijklmnopqrstuv', handle: '@bench', title: 'Bench', uploads: [] });
  fake.addVideo(
    video('benchvideo1', {
      channelId: 'UCabcdefghijklmnopqrstuv',
      threads: threads('benchvideo1', Math.ceil(COMMENTS / perThread), () => repliesPerThread),
    }),
  );
  const tally = new TelemetryTally();
  const provider = new YouTubeProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, telemetry: tally });
  const started = process.hrtime.bigint();
  const result = await provider.fetchPost('https://youtube.com/watch?v=benchvideo1', { fullRead: true });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 'ok') throw new Error(result.reason);
  const n = result.comments.length;
  console.log(
    `youtube ${label}: ${n} comments in ${seconds.toFixed(2)} s = ${Math.round(n / seconds)} comments/s; ${tally.quotaUnits} quota units = ${((tally.quotaUnits * 1000) / n).toFixed(1)} per 1,000 comments`,
  );
  await fake.stop();
}

async function reddit(): Promise<void> {
  const fake = new RedditFake();
  await fake.start();
  const top = Math.ceil(COMMENTS / 3);
  fake.addPost(
    threadPost('bench01', {
      comments: Array.from({ length: top }, (_, i) =>
        comment(`t${i}`, [comment(`t${i}a`, [comment(`t${i}b`)])]),
      ),
    }),
  );
  const tally = new TelemetryTally();
  const provider = new RedditProvider({
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    userAgent: 'node:analyst-bench:1.0',
    baseUrl: fake.baseUrl,
    tokenUrl: fake.tokenUrl,
    telemetry: tally,
  });
  const started = process.hrtime.bigint();
  const result = await provider.fetchPost('https://reddit.com/comments/bench01', { fullRead: true });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 'ok') throw new Error(result.reason);
  const calls = [...tally.calls.values()].reduce((a, b) => a + b, 0);
  console.log(
    `reddit (threads of 3): ${result.comments.length} comments in ${seconds.toFixed(2)} s = ${Math.round(result.comments.length / seconds)} comments/s; ${calls} requests`,
  );
  await fake.stop();
}

async function main(): Promise<void> {
  await youtube('(4 inline replies per thread)', 4);
  await youtube('(10 replies per thread, comments.list for each)', 10);
  await youtube('(no replies)', 0);
  await reddit();
}

void main();
