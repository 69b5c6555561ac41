import type { ContentJob } from '@analyst/domain-content';
import { AddPostsHandler } from '../add-posts/add-posts.handler';
import type { CollectionRefDto } from '../request/content-request.dto';
import type { Requester } from '../request/requester';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Demo post links of the eight platforms, deterministic, so every installation gets the same demo. */
export const DEMO_LINKS: Record<string, (n: number) => string> = {
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
  platforms.flatMap((p) => Array.from({ length: each }, (_, i) => DEMO_LINKS[p](from + i)));

/** Who the demo posts are added by: the demo team's API key. */
export interface DemoKey {
  id: string;
  name: string;
}

export interface DemoContentResult {
  jobs: ContentJob[];
  posts: number;
  campaigns: string[];
}

/**
 * Adds 60 demo posts across the eight platforms to a team, in two campaigns with two nested groups
 * each, through the same path as POST /content/posts/add (collections by name, reservations from the
 * team's credits, fetch and scoring). Posts carry `addedVia: api`, `addedBy` = the demo key and
 * `isDemo: true`. Costs 60 credits. Call it once, on a fresh team (a second call skips every link).
 */
export async function seedDemoContent(
  addPosts: AddPostsHandler | { get(token: typeof AddPostsHandler): AddPostsHandler },
  teamId: string,
  key: DemoKey,
): Promise<DemoContentResult> {
  const handler = addPosts instanceof AddPostsHandler ? addPosts : addPosts.get(AddPostsHandler);
  const requester: Requester = {
    keyId: key.id,
    keyName: key.name,
    teamId,
    correlationId: 'demo-content',
    isDemo: true,
  };
  const jobs: ContentJob[] = [];
  const add = async (batch: string[], collections: CollectionRefDto[], tags: string[]) => {
    const { job } = await handler.add(requester, { links: batch, collections, tags });
    jobs.push(job);
    return job;
  };
  const launch = await add(
    links(['youtube', 'tiktok', 'instagram', 'x'], 1, 3),
    [{ name: 'Spring Launch' }],
    ['launch'],
  );
  const launchId = launch.collections[0].id;
  await add(
    links(['youtube', 'tiktok', 'instagram'], 10, 3),
    [{ name: 'Creator Partnerships', type: 'group', parentId: launchId }],
    ['launch', 'creators'],
  );
  await add(
    links(['x', 'threads', 'facebook'], 20, 3),
    [{ name: 'Launch Reactions', type: 'group', parentId: launchId }],
    ['launch', 'reactions'],
  );
  const pulse = await add(
    links(['reddit', 'linkedin', 'facebook', 'threads'], 30, 3),
    [{ name: 'Community Pulse' }],
    ['community'],
  );
  const pulseId = pulse.collections[0].id;
  await add(
    links(['reddit', 'linkedin'], 40, 5),
    [{ name: 'Forum Threads', type: 'group', parentId: pulseId }],
    ['community', 'forums'],
  );
  await add(
    links(['tiktok', 'youtube', 'instagram', 'x'], 50, 2),
    [{ name: 'Short Video', type: 'group', parentId: pulseId }],
    ['community', 'video'],
  );
  return { jobs, posts: jobs.reduce((n, j) => n + j.accepted.length, 0), campaigns: [launchId, pulseId] };
}
