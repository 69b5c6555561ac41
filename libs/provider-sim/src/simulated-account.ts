import type { AccountQuery, DiscoveredPost, Platform } from '@analyst/contracts';
import { classifyLink } from '@analyst/links';
import { keywordTest } from '@analyst/provider-core';
import { Rng, sha256Hex } from './prng';
import { simulatePost, subjectIndexOf } from './simulated-post';
import { SUBJECTS } from './subjects';

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The handle or page part of a normalized account URL. */
function accountHandle(accountUrl: string): string {
  const segments = new URL(accountUrl).pathname.split('/').filter(Boolean);
  const last = segments[segments.length - 1] ?? 'account';
  return last.startsWith('@') ? last.slice(1) : last;
}

function postLink(platform: Platform, handle: string, rng: Rng): string {
  switch (platform) {
    case 'youtube':
      return `https://youtube.com/watch?v=${rng.code(11, CODE_ALPHABET)}`;
    case 'tiktok':
      return `https://tiktok.com/@${handle}/video/${rng.digits(19)}`;
    case 'instagram':
      return `https://instagram.com/p/${rng.code(11, CODE_ALPHABET)}`;
    case 'facebook':
      return `https://facebook.com/${handle}/posts/${rng.digits(16)}`;
    case 'x':
      return `https://x.com/${handle}/status/${rng.digits(19)}`;
    case 'threads':
      return `https://threads.com/@${handle}/post/${rng.code(11, ALNUM)}`;
    default:
      throw new Error(`accounts are not supported on ${platform}`);
  }
}

/**
 * An account's recent posts (30-60 over the 90 days before the reference date), newest first,
 * filtered at the source by since/until/keywords and cut to limit. All posts of one account share
 * its niche (subject): candidate links are drawn until their subject matches the account's.
 */
export function simulateAccount(
  accountUrl: string,
  platform: Platform,
  query: AccountQuery,
  reference: Date,
): DiscoveredPost[] {
  const rng = new Rng(`${accountUrl}#account`);
  const handle = accountHandle(accountUrl);
  const niche = parseInt(sha256Hex(`${accountUrl}#niche`).slice(0, 8), 16);
  const count = rng.int(30, 60);
  const posts: DiscoveredPost[] = [];
  for (let i = 0; i < count; i++) {
    let link = postLink(platform, handle, rng);
    for (let tries = 0; tries < 64 && subjectIndexOf(link) !== niche % SUBJECTS.length; tries++)
      link = postLink(platform, handle, rng);
    const classified = classifyLink(link);
    if (!classified.ok) throw new Error(`simulated account produced an unclassifiable link ${link}`);
    const { post } = simulatePost(classified.normalized, platform, reference);
    posts.push({
      link: classified.normalized,
      postedAt: post.postedAt,
      postType: post.postType,
      caption: post.caption,
      engagement: { views: post.engagement.views, likes: post.engagement.likes },
    });
  }
  posts.sort((a, b) =>
    a.postedAt < b.postedAt ? 1 : a.postedAt > b.postedAt ? -1 : a.link < b.link ? -1 : 1,
  );

  const since = query.since ? Date.parse(query.since) : -Infinity;
  const until = query.until ? Date.parse(query.until) : reference.getTime();
  const matches = keywordTest(query.keywords);
  const out: DiscoveredPost[] = [];
  for (const p of posts) {
    if (out.length >= query.limit) break;
    const at = Date.parse(p.postedAt);
    if (at < since || at > until || !matches(p.caption)) continue;
    out.push(p);
  }
  return out;
}
