import {
  type AccountQuery,
  type ContentProvider,
  type DiscoveredPost,
  type FetchOptions,
  type FetchResult,
} from '@analyst/contracts';
import { classifyLink } from '@analyst/links';
import { credentialHealth, discoverWithFaults, fetchFaultResult, keywordTest } from '@analyst/provider-core';
import { CommentTree } from './comment-tree';
import { RedditApi, type RedditApiOptions } from './reddit-api';
import { mapLink } from './reddit-mapping';
import type { CommentOrMore, LinkData, Listing, Thing } from './reddit-things';

/** `/comments/{id}` renders at most 500 comments; the rest come through morechildren. */
const FIRST_PAGE = 500;
const LISTING_PAGE = 100;

/**
 * Reddit through its OAuth API (application-only): the post and its comment tree from
 * `/comments/{id}`, `more` nodes expanded through `/api/morechildren` 100 ids at a time and
 * "continue this thread" nodes through `/comments/{id}?comment=<parent>`;
 * accounts from `/user/{name}/submitted` and subreddits from `/r/{sub}/new`.
 */
export class RedditProvider implements ContentProvider {
  readonly api: RedditApi;

  constructor(options: RedditApiOptions) {
    this.api = new RedditApi(options);
  }

  health(): { ready: boolean; detail?: string } {
    return credentialHealth(this.api.authProblem);
  }

  async fetchPost(link: string, options: FetchOptions): Promise<FetchResult> {
    const classified = classifyLink(link);
    const match = classified.ok
      ? /^https:\/\/reddit\.com\/comments\/([a-z0-9]+)$/.exec(classified.normalized)
      : null;
    if (!classified.ok || !match) {
      // Mobile share links (/r/<sub>/s/<code>) only resolve by following www.reddit.com's redirect, outside the API.
      return {
        status: 'failed',
        reason: `not a Reddit post link the API can read (share links must be opened once and the post's own link added): ${link}`,
      };
    }
    const id = match[1];
    const limit = options.fullRead ? Infinity : (options.commentLimit ?? Infinity);
    /** `limit` for a `/comments` listing: what is still wanted, at most one page. */
    const page = (have: number): string =>
      String(Math.min(FIRST_PAGE, Math.max(1, limit === Infinity ? FIRST_PAGE : limit - have)));
    try {
      const [posts, comments] = await this.api.get<[Listing<Thing<'t3', LinkData>>, Listing<CommentOrMore>]>(
        `/comments/${id}`,
        { limit: page(0), sort: 'confidence' },
      );
      const post = posts.data.children[0]?.data;
      if (!post) return { status: 'unreachable', reason: `reddit: post ${id} was not found` };
      const tree = new CommentTree();
      tree.add(comments.data.children);
      await this.expand(id, tree, limit, page);
      return { status: 'ok', post: mapLink(post, classified.normalized), comments: tree.flatten(limit) };
    } catch (error) {
      return fetchFaultResult(error, 'reddit');
    }
  }

  /**
   * Opens `more` nodes until `limit` readable comments are stored or none is left: ids first (100
   * comments a call through morechildren), then "continue this thread" sub-threads (one
   * `/comments/{id}?comment=<parent>` call each, whose second listing is the parent comment, already
   * stored, with its replies). Either answer may queue more of both; each comment and each
   * sub-thread is asked for once. Faults propagate as for the first listing.
   */
  private async expand(
    id: string,
    tree: CommentTree,
    limit: number,
    page: (have: number) => string,
  ): Promise<void> {
    while (tree.readable < limit && tree.hasMore) {
      const batch = tree.takeBatch();
      if (batch.length > 0) {
        const more = await this.api.get<{ json: { data?: { things: CommentOrMore[] } } }>(
          '/api/morechildren',
          { api_type: 'json', link_id: `t3_${id}`, children: batch.join(','), limit_children: 'false' },
        );
        tree.add(more.json.data?.things ?? []);
        continue;
      }
      const parent = tree.takeContinuation();
      if (parent === null) return;
      const [, thread] = await this.api.get<[unknown, Listing<CommentOrMore>]>(`/comments/${id}`, {
        comment: parent,
        limit: page(tree.readable),
        sort: 'confidence',
      });
      tree.add(thread.data.children);
    }
  }

  /**
   * A user's submissions or a subreddit's new posts, newest first, within since/until and the
   * keywords, up to `limit`. Single attempts: the discovery worker owns the retries.
   */
  async discoverAccount(accountUrl: string, query: AccountQuery): Promise<DiscoveredPost[]> {
    return discoverWithFaults(() => this.discover(accountUrl, query));
  }

  private async discover(accountUrl: string, query: AccountQuery): Promise<DiscoveredPost[]> {
    const path = listingPath(accountUrl);
    if (!path) return [];
    const since = query.since ? Date.parse(query.since) : -Infinity;
    const until = query.until ? Date.parse(query.until) : Infinity;
    const matches = keywordTest(query.keywords);
    const out: DiscoveredPost[] = [];
    let after: string | null = null;
    scan: do {
      const page: Listing<Thing<'t3', LinkData>> = await this.api.get(
        path,
        { sort: 'new', limit: String(LISTING_PAGE), ...(after ? { after } : {}) },
        false,
      );
      for (const { data } of page.data.children) {
        const at = data.created_utc * 1000;
        if (at < since) break scan; // newest first: nothing older can match
        const post = mapLink(data, `https://reddit.com/comments/${data.id}`);
        if (at > until || !matches(post.caption)) continue;
        out.push({
          link: post.link,
          postedAt: post.postedAt,
          postType: post.postType,
          caption: post.caption,
          engagement: { views: post.engagement.views, likes: post.engagement.likes },
        });
        if (out.length >= query.limit) break scan;
      }
      after = page.data.after;
    } while (after);
    return out;
  }
}

/** `/user/<name>` or `/u/<name>` → submitted; `/r/<sub>` → new. */
function listingPath(accountUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(accountUrl);
  } catch {
    return null;
  }
  if (!/(^|\.)reddit\.com$/i.test(url.hostname)) return null;
  const [kind, name] = url.pathname.split('/').filter(Boolean);
  if (!name || !/^[A-Za-z0-9_-]{2,21}$/.test(name)) return null;
  if (kind === 'user' || kind === 'u') return `/user/${name}/submitted`;
  if (kind === 'r') return `/r/${name}/new`;
  return null;
}
