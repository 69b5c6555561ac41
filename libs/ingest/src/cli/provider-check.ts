import type { Command } from 'commander';
import type { FetchResult } from '@analyst/contracts';
import { classifyLink } from '@analyst/links';
import { loadConfig, providerRoutes } from '@analyst/platform';
import { TelemetryTally } from '@analyst/provider-core';
import { contentProviderFromConfig } from '../providers/content-provider.factory';

export interface ProviderCheckReport {
  link: string;
  platform: string;
  provider: string;
  status: FetchResult['status'];
  reason?: string;
  title?: string;
  creator?: string;
  engagement?: { views: number; likes: number; comments: number; shares: number };
  commentsFetched?: number;
  replies?: number;
  firstComments?: { author: string; likes: number; body: string }[];
  requests: number;
  quotaUnits: number;
  rateLimitRemaining: number | null;
}

/** Fetches one post through the provider the environment configures, as ingest would, and reports what came back. */
export async function checkProvider(
  url: string,
  options: { limit: number },
  env: Record<string, string | undefined> = process.env,
): Promise<ProviderCheckReport> {
  const classified = classifyLink(url);
  if (!classified.ok || classified.kind !== 'post')
    throw new Error(`${url} is not a post link of a supported platform`);
  const config = loadConfig(env);
  const tally = new TelemetryTally();
  const provider = contentProviderFromConfig(config, tally);
  const result = await provider.fetchPost(classified.normalized, {
    fullRead: false,
    commentLimit: options.limit,
  });
  const base = {
    link: classified.normalized,
    platform: classified.platform,
    provider: providerRoutes(config)[classified.platform],
    status: result.status,
    requests: [...tally.calls.values()].reduce((a, b) => a + b, 0),
    quotaUnits: tally.quotaUnits,
    rateLimitRemaining: tally.lastRateLimit?.remaining ?? null,
  };
  if (result.status !== 'ok') return { ...base, reason: result.reason };
  return {
    ...base,
    title: result.post.title,
    creator: result.post.creator.username,
    engagement: result.post.engagement,
    commentsFetched: result.comments.length,
    replies: result.comments.filter((c) => c.parentId !== null).length,
    firstComments: result.comments.slice(0, 5).map((c) => ({
      author: c.authorUsername,
      likes: c.likes,
      body: c.body.length > 100 ? `${c.body.slice(0, 99)}…` : c.body,
    })),
  };
}

export function formatProviderCheck(r: ProviderCheckReport): string {
  const lines = [
    `${r.link}  (${r.platform} via ${r.provider})`,
    `status: ${r.status}${r.reason ? ` — ${r.reason}` : ''}`,
  ];
  if (r.status === 'ok') {
    const e = r.engagement!;
    lines.push(
      `title: ${r.title}`,
      `creator: ${r.creator}`,
      `engagement: ${e.views} views, ${e.likes} likes, ${e.comments} comments, ${e.shares} shares`,
    );
    lines.push(`fetched: ${r.commentsFetched} comments (${r.replies} replies)`);
    for (const c of r.firstComments!) lines.push(`  ${c.author} (${c.likes} likes): ${c.body}`);
  }
  const usage = [
    `${r.requests} requests`,
    r.platform === 'youtube' ? `${r.quotaUnits} quota units` : '',
    r.rateLimitRemaining !== null ? `rate limit remaining ${r.rateLimitRemaining}` : '',
  ];
  lines.push(usage.filter(Boolean).join(', '));
  if (r.provider === 'simulated')
    lines.push(
      'note: this platform is served by the simulator; set ANALYST_PROVIDERS (e.g. youtube=youtube,reddit=reddit,*=simulated) to check real keys',
    );
  return lines.join('\n');
}

/** `analyst provider check <url> [--limit N]`. */
export function registerProviderCommands(program: Command, json: () => boolean): void {
  const provider = program
    .command('provider')
    .description('content providers (YouTube, Reddit, the simulator)');
  provider
    .command('check <url>')
    .description(
      'fetch one post through the configured provider and print what it found (title, counts, first comments, quota used)',
    )
    .option('--limit <n>', 'comments to fetch at most', '100')
    .action(async (url: string, flags: { limit: string }) => {
      const limit = Number(flags.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit must be a positive integer');
      const report = await checkProvider(url, { limit });
      process.stdout.write(`${json() ? JSON.stringify(report) : formatProviderCheck(report)}\n`);
      if (report.status !== 'ok') process.exitCode = 1;
    });
}
