import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { FaultSchedule, type FakeFault } from './fake-faults';

export interface FakeRedditComment {
  id: string;
  author: string;
  body: string;
  score: number;
  createdUtc: number;
  isSubmitter?: boolean;
  /** Removed by a moderator (`[removed]`) or deleted by its author (`[deleted]`); the tree keeps its place. */
  gone?: 'removed' | 'deleted';
  replies: FakeRedditComment[];
}

export interface FakeRedditPost {
  id: string;
  subreddit: string;
  author: string;
  title: string;
  selftext: string;
  createdUtc: number;
  score: number;
  numCrossposts: number;
  kind: 'self' | 'image' | 'video' | 'gallery' | 'link';
  /** A post in a private subreddit: 403 with reason "private". */
  private?: boolean;
  comments: FakeRedditComment[];
}

interface Thing {
  kind: string;
  data: Record<string, unknown>;
}

/** Reddit's edge answers an outage with an HTML page, not JSON. */
function unavailable(reply: FastifyReply, status: number): FastifyReply {
  return reply
    .code(status)
    .type('text/html')
    .send('<html><body><h1>503 Service Unavailable</h1></body></html>');
}

/**
 * A local Reddit: the OAuth2 token endpoint (client credentials) and the OAuth API host's
 * `/comments/{id}` (whole post, or one comment's sub-thread with `?comment=`), `/api/morechildren`,
 * `/user/{name}/submitted` and `/r/{sub}/new`, with Listing and Thing shapes, `more` nodes (with ids,
 * and "continue this thread" past `continueDepth`), `X-Ratelimit-*` headers and 429s.
 * See libs/provider-reddit/README.md.
 */
export class RedditFake {
  readonly posts = new Map<string, FakeRedditPost>();
  readonly faults = new FaultSchedule();
  readonly calls = new Map<string, number>();
  readonly userAgents = new Set<string>();
  /** Requests left in the current window, and the seconds until it resets (as the headers report them). */
  remaining = 1000;
  resetSeconds = 420;
  tokensIssued = 0;
  /** Comments a `/comments` answer renders inline at each level; the rest go into `more` nodes. */
  inlinePerLevel = 4;
  /** Levels rendered inline below the top (Reddit's `depth`); deeper replies become `more` nodes. */
  inlineDepth = 2;
  /**
   * Depth (0 = top level) whose comments are not listed at all: a comment one level above that has
   * replies ends in a "continue this thread" node (`id: "_"`, `count: 0`, no children) instead, in
   * `/comments` and `morechildren` answers alike; only `/comments/{id}?comment=<parent>` opens it.
   * Counted from the view's top, so a `?comment=` answer counts again from its focal comment
   * (depth 0). Infinity: never.
   */
  continueDepth = Infinity;
  /** The `comment` ids asked for through `/comments/{id}?comment=`, in order. */
  readonly focalRequests: string[] = [];
  private readonly tokens = new Set<string>();
  private app: FastifyInstance | null = null;
  baseUrl = '';
  tokenUrl = '';

  constructor(
    readonly clientId = 'fake-client-id',
    readonly clientSecret = 'fake-client-secret',
  ) {}

  addPost(post: FakeRedditPost): this {
    this.posts.set(post.id, post);
    return this;
  }

  /** Every token issued so far stops working (as after a revocation or expiry). */
  expireTokens(): void {
    this.tokens.clear();
  }

  async start(): Promise<void> {
    // Slow answers still pending must not hold up stop().
    const app = Fastify({ forceCloseConnections: true });
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    app.addHook('onRequest', async (request, reply) => this.gate(request, reply));
    app.post('/api/v1/access_token', async (request, reply) => this.token(request, reply));
    app.get('/comments/:id', async (request, reply) =>
      this.comments(
        request as FastifyRequest<{ Params: { id: string }; Querystring: Record<string, string> }>,
        reply,
      ),
    );
    app.get('/api/morechildren', async (request, reply) =>
      this.moreChildren(request.query as Record<string, string>, reply),
    );
    app.get('/user/:name/submitted', async (request) =>
      this.listing(
        (request.params as { name: string }).name,
        'author',
        request.query as Record<string, string>,
      ),
    );
    app.get('/r/:sub/new', async (request) =>
      this.listing(
        (request.params as { sub: string }).sub,
        'subreddit',
        request.query as Record<string, string>,
      ),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    this.app = app;
    const address = app.server.address() as { port: number };
    this.baseUrl = `http://127.0.0.1:${address.port}`;
    this.tokenUrl = `${this.baseUrl}/api/v1/access_token`;
  }

  async stop(): Promise<void> {
    await this.app?.close();
    this.app = null;
  }

  /**
   * Every call is counted and may meet a scheduled fault (matched against the whole URL, so a fault
   * can aim at one query: `/comments/abc?comment=c0`); past the token route, what the API answers
   * before any handler: 401, 429, 5xx.
   */
  private async gate(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const path = request.url.split('?')[0];
    this.calls.set(path, (this.calls.get(path) ?? 0) + 1);
    this.userAgents.add(String(request.headers['user-agent'] ?? ''));
    const fault = this.faults.take(request.url);
    if (fault?.kind === 'slow') await new Promise((r) => setTimeout(r, fault.ms));
    if (path === '/api/v1/access_token') return undefined;
    return this.refusal(fault, request, reply);
  }

  private refusal(
    fault: FakeFault | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): FastifyReply | undefined {
    const token = String(request.headers.authorization ?? '').replace(/^bearer /i, '');
    if (fault?.kind === 'auth' || !this.tokens.has(token)) {
      return reply.code(401).send({ message: 'Unauthorized', error: 401 });
    }
    if (fault?.kind === 'quota' || this.remaining <= 0) {
      this.remaining = 0;
      this.rateHeaders(reply);
      return reply.code(429).send({ message: 'Too Many Requests', error: 429 });
    }
    this.remaining--;
    this.rateHeaders(reply);
    if (fault?.kind === 'server') return unavailable(reply, fault.status ?? 503);
    if (fault?.kind === 'rate') return unavailable(reply, 503);
    return undefined;
  }

  private rateHeaders(reply: FastifyReply): void {
    reply
      .header('x-ratelimit-used', String(1000 - this.remaining))
      .header('x-ratelimit-remaining', String(this.remaining))
      .header('x-ratelimit-reset', String(this.resetSeconds));
  }

  private token(request: FastifyRequest, reply: FastifyReply) {
    const expected = `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`;
    const body = request.body as Record<string, string> | undefined;
    if (request.headers.authorization !== expected)
      return reply.code(401).send({ message: 'Unauthorized', error: 401 });
    if (body?.grant_type !== 'client_credentials')
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    const token = `fake-token-${++this.tokensIssued}`;
    this.tokens.add(token);
    return { access_token: token, token_type: 'bearer', expires_in: 86400, scope: '*' };
  }

  private postThing(p: FakeRedditPost): Thing {
    return {
      kind: 't3',
      data: {
        id: p.id,
        name: `t3_${p.id}`,
        subreddit: p.subreddit,
        author: p.author,
        title: p.title,
        selftext: p.selftext,
        created_utc: p.createdUtc,
        score: p.score,
        ups: p.score,
        upvote_ratio: 0.93,
        num_comments: countAll(p.comments),
        num_crossposts: p.numCrossposts,
        is_self: p.kind === 'self',
        is_video: p.kind === 'video',
        ...(p.kind === 'gallery' ? { is_gallery: true } : {}),
        ...(p.kind === 'image' ? { post_hint: 'image' } : {}),
        thumbnail: p.kind === 'self' ? 'self' : `https://b.thumbs.redditmedia.com/${p.id}.jpg`,
        permalink: `/r/${p.subreddit}/comments/${p.id}/slug/`,
        url: `https://www.reddit.com/r/${p.subreddit}/comments/${p.id}/slug/`,
        view_count: null,
        removed_by_category: null,
      },
    };
  }

  private commentThing(
    c: FakeRedditComment,
    postId: string,
    parent: string,
    depth: number,
    replies: Thing[] | '',
  ): Thing {
    return {
      kind: 't1',
      data: {
        id: c.id,
        name: `t1_${c.id}`,
        parent_id: parent,
        link_id: `t3_${postId}`,
        author: c.gone ? '[deleted]' : c.author,
        body: c.gone ? `[${c.gone}]` : c.body,
        score: c.score,
        ups: c.score,
        created_utc: c.createdUtc,
        is_submitter: c.isSubmitter ?? false,
        collapsed: false,
        depth,
        replies:
          replies === '' || replies.length === 0
            ? ''
            : { kind: 'Listing', data: { after: null, before: null, children: replies } },
      },
    };
  }

  private moreThing(ids: string[], parent: string, depth: number, count: number): Thing {
    return {
      kind: 'more',
      data: { count, name: `t1_${ids[0]}`, id: ids[0], parent_id: parent, depth, children: ids },
    };
  }

  /** "Continue this thread": Reddit's placeholder for replies past the depth limit, naming only their parent. */
  private continueThing(parentId: string, depth: number): Thing {
    return {
      kind: 'more',
      data: { count: 0, name: 't1__', id: '_', parent_id: `t1_${parentId}`, depth, children: [] },
    };
  }

  /** What stands in a comment's `replies` at `depth`: a continue node, a `more` node of ids, or the rendered level. */
  private repliesOf(
    c: FakeRedditComment,
    postId: string,
    depth: number,
    budget: { left: number },
    maxDepth: number,
  ): Thing[] | '' {
    if (c.replies.length === 0) return '';
    if (depth + 1 >= this.continueDepth) return [this.continueThing(c.id, depth + 1)];
    if (depth + 1 > maxDepth)
      return [
        this.moreThing(
          c.replies.map((r) => r.id),
          `t1_${c.id}`,
          depth + 1,
          countAll(c.replies),
        ),
      ];
    return this.render(c.replies, postId, `t1_${c.id}`, depth + 1, budget, maxDepth);
  }

  /** A level of the tree: the first `inlinePerLevel` comments rendered (up to `maxDepth`), the rest in one `more` node. */
  private render(
    list: FakeRedditComment[],
    postId: string,
    parent: string,
    depth: number,
    budget: { left: number },
    maxDepth: number,
  ): Thing[] {
    const out: Thing[] = [];
    const inline = list.slice(0, Math.max(0, Math.min(this.inlinePerLevel, budget.left)));
    for (const c of inline) {
      budget.left--;
      out.push(
        this.commentThing(c, postId, parent, depth, this.repliesOf(c, postId, depth, budget, maxDepth)),
      );
    }
    const rest = list.slice(inline.length);
    if (rest.length > 0)
      out.push(
        this.moreThing(
          rest.map((r) => r.id),
          parent,
          depth,
          countAll(rest),
        ),
      );
    return out;
  }

  private comments(
    request: FastifyRequest<{ Params: { id: string }; Querystring: Record<string, string> }>,
    reply: FastifyReply,
  ) {
    const post = this.posts.get(request.params.id);
    if (!post) return reply.code(404).send({ message: 'Not Found', error: 404 });
    if (post.private) return reply.code(403).send({ reason: 'private', message: 'Forbidden', error: 403 });
    const limit = Math.min(500, Number(request.query.limit ?? 200));
    const depth = Math.min(this.inlineDepth, Number(request.query.depth ?? this.inlineDepth));
    const budget = { left: limit };
    let children: Thing[];
    if (request.query.comment !== undefined) {
      // One comment's sub-thread (context=0): the comment itself at depth 0, its replies rendered below it.
      this.focalRequests.push(request.query.comment);
      const found = findWithParent(post.comments, request.query.comment, `t3_${post.id}`, 0);
      budget.left--;
      // A comment id the post does not hold: the fake answers with no comments.
      children = found
        ? [
            this.commentThing(
              found.comment,
              post.id,
              found.parent,
              0,
              this.repliesOf(found.comment, post.id, 0, budget, depth),
            ),
          ]
        : [];
    } else {
      children = this.render(post.comments, post.id, `t3_${post.id}`, 0, budget, depth);
    }
    return [
      { kind: 'Listing', data: { after: null, before: null, children: [this.postThing(post)] } },
      { kind: 'Listing', data: { after: null, before: null, children } },
    ];
  }

  private moreChildren(q: Record<string, string>, reply: FastifyReply) {
    const post = this.posts.get((q.link_id ?? '').replace(/^t3_/, ''));
    const ids = (q.children ?? '').split(',').filter(Boolean);
    if (!post || q.api_type !== 'json')
      return reply
        .code(400)
        .send({ json: { errors: [['BAD_REQUEST', 'link_id and api_type=json are required', 'link_id']] } });
    if (ids.length > 100)
      return reply
        .code(400)
        .send({ json: { errors: [['TOO_MANY_CHILDREN', 'at most 100 children per request', 'children']] } });
    const things: Thing[] = [];
    // Each requested comment flat, with its own replies folded into a `more` node (the client expands
    // again), or into a "continue this thread" node past `continueDepth` (counted from the post).
    for (const id of ids) {
      const found = findWithParent(post.comments, id, `t3_${post.id}`, 0);
      if (!found) continue;
      things.push(this.commentThing(found.comment, post.id, found.parent, found.depth, ''));
      const replies = this.repliesOf(found.comment, post.id, found.depth, { left: 0 }, found.depth);
      if (replies !== '') things.push(...replies);
    }
    return { json: { errors: [], data: { things } } };
  }

  private listing(name: string, by: 'author' | 'subreddit', q: Record<string, string>) {
    const all = [...this.posts.values()]
      .filter((p) => p[by].toLowerCase() === name.toLowerCase())
      .sort((a, b) => b.createdUtc - a.createdUtc);
    const limit = Math.min(100, Number(q.limit ?? 25));
    const start = q.after ? all.findIndex((p) => `t3_${p.id}` === q.after) + 1 : 0;
    const page = all.slice(start, start + limit);
    const after = start + limit < all.length ? `t3_${page[page.length - 1].id}` : null;
    return {
      kind: 'Listing',
      data: { after, before: null, dist: page.length, children: page.map((p) => this.postThing(p)) },
    };
  }
}

function countAll(list: FakeRedditComment[]): number {
  return list.reduce((n, c) => n + 1 + countAll(c.replies), 0);
}

function findWithParent(
  list: FakeRedditComment[],
  id: string,
  parent: string,
  depth: number,
): { comment: FakeRedditComment; parent: string; depth: number } | null {
  for (const c of list) {
    if (c.id === id) return { comment: c, parent, depth };
    const deeper = findWithParent(c.replies, id, `t1_${c.id}`, depth + 1);
    if (deeper) return deeper;
  }
  return null;
}
