import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { FaultSchedule, pageToken, type FakeFault } from './fake-faults';

/** One comment as the fake stores it (the fields a `comment` resource's snippet carries). */
export interface FakeYouTubeComment {
  id: string;
  authorDisplayName: string;
  authorChannelId: string;
  text: string;
  likeCount: number;
  publishedAt: string;
}

export interface FakeYouTubeThread {
  top: FakeYouTubeComment;
  replies: FakeYouTubeComment[];
}

export interface FakeYouTubeVideo {
  id: string;
  channelId: string;
  title: string;
  description: string;
  publishedAt: string;
  viewCount: number;
  likeCount: number;
  /** Videos with comments turned off: commentThreads.list answers 403 commentsDisabled. */
  commentsDisabled?: boolean;
  /** Private videos: videos.list leaves them out of `items`, commentThreads.list answers 403 forbidden. */
  private?: boolean;
  threads: FakeYouTubeThread[];
}

export interface FakeYouTubeChannel {
  id: string;
  /** With the @, as `snippet.customUrl` carries it. */
  handle: string;
  title: string;
  /** Legacy username (`/user/<name>`), if any. */
  username?: string;
  /** Video ids of the uploads playlist, newest first. */
  uploads: string[];
}

/** Inline replies on a commentThread (the API returns at most 5 and says replies may be incomplete). */
const INLINE_REPLIES = 5;

/** A list response's `nextPageToken`, present while items remain after this page of `max` from `offset`. */
function nextPage(offset: number, max: number, total: number): { nextPageToken?: string } {
  return offset + max < total ? { nextPageToken: pageToken.encode(offset + max) } : {};
}

/**
 * A local YouTube Data API v3 (the `youtube/v3` root): videos.list, channels.list,
 * playlistItems.list, commentThreads.list and comments.list, with the documented resource shapes,
 * paging tokens, error envelope and quota costs (1 unit per list call). See libs/provider-youtube/README.md.
 */
export class YouTubeFake {
  readonly videos = new Map<string, FakeYouTubeVideo>();
  readonly channels = new Map<string, FakeYouTubeChannel>();
  readonly faults = new FaultSchedule();
  /** Quota units charged so far, and calls by endpoint. */
  quotaUsed = 0;
  readonly calls = new Map<string, number>();
  private app: FastifyInstance | null = null;
  baseUrl = '';

  constructor(readonly apiKey = 'fake-youtube-key') {}

  addVideo(video: FakeYouTubeVideo): this {
    this.videos.set(video.id, video);
    return this;
  }

  addChannel(channel: FakeYouTubeChannel): this {
    this.channels.set(channel.id, channel);
    return this;
  }

  async start(): Promise<string> {
    // Slow answers still pending must not hold up stop().
    const app = Fastify({ forceCloseConnections: true });
    app.addHook('onRequest', async (request, reply) => {
      const path = request.url.split('?')[0].replace(/^\/youtube\/v3/, '');
      this.calls.set(path, (this.calls.get(path) ?? 0) + 1);
      const query = request.query as Record<string, string>;
      const fault = this.faults.take(path);
      if (fault?.kind === 'slow') await new Promise((r) => setTimeout(r, fault.ms));
      if (fault?.kind === 'auth' || query.key !== this.apiKey)
        return this.error(
          reply,
          400,
          'badRequest',
          'keyInvalid',
          'API key not valid. Please pass a valid API key.',
        );
      this.quotaUsed++;
      if (fault && fault.kind !== 'slow') return this.fault(reply, fault);
    });
    app.get('/youtube/v3/videos', async (request) =>
      this.listVideos(request.query as Record<string, string>),
    );
    app.get('/youtube/v3/channels', async (request) =>
      this.listChannels(request.query as Record<string, string>),
    );
    app.get('/youtube/v3/playlistItems', async (request, reply) =>
      this.listPlaylistItems(request.query as Record<string, string>, reply),
    );
    app.get('/youtube/v3/commentThreads', async (request, reply) =>
      this.listThreads(request.query as Record<string, string>, reply),
    );
    app.get('/youtube/v3/comments', async (request, reply) =>
      this.listComments(request.query as Record<string, string>, reply),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    this.app = app;
    const address = app.server.address() as { port: number };
    this.baseUrl = `http://127.0.0.1:${address.port}/youtube/v3`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    await this.app?.close();
    this.app = null;
  }

  private fault(reply: FastifyReply, fault: Exclude<FakeFault, { kind: 'slow' | 'auth' }>): FastifyReply {
    if (fault.kind === 'quota') {
      return this.error(
        reply,
        403,
        'youtube.quota',
        'quotaExceeded',
        'The request cannot be completed because you have exceeded your quota.',
      );
    }
    if (fault.kind === 'rate')
      return this.error(
        reply,
        403,
        'usageLimits',
        'rateLimitExceeded',
        'The request cannot be completed due to rate limiting.',
      );
    return this.error(reply, fault.status ?? 503, 'global', 'backendError', 'Backend Error');
  }

  private error(
    reply: FastifyReply,
    code: number,
    domain: string,
    reason: string,
    message: string,
  ): FastifyReply {
    return reply.code(code).send({ error: { code, message, errors: [{ message, domain, reason }] } });
  }

  private invalidPageToken(reply: FastifyReply): FastifyReply {
    return this.error(
      reply,
      400,
      'youtube.parameter',
      'invalidPageToken',
      'The request specifies an invalid page token.',
    );
  }

  private listVideos(q: Record<string, string>) {
    const items = (q.id ?? '')
      .split(',')
      .map((id) => this.videos.get(id))
      .filter((v): v is FakeYouTubeVideo => v !== undefined && !v.private)
      .map((v) => ({
        kind: 'youtube#video',
        etag: `etag-${v.id}`,
        id: v.id,
        snippet: {
          publishedAt: v.publishedAt,
          channelId: v.channelId,
          title: v.title,
          description: v.description,
          thumbnails: {
            high: { url: `https://i.ytimg.com/vi/${v.id}/hqdefault.jpg`, width: 480, height: 360 },
          },
          channelTitle: this.channels.get(v.channelId)?.title ?? '',
          liveBroadcastContent: 'none',
        },
        statistics: {
          viewCount: String(v.viewCount),
          likeCount: String(v.likeCount),
          favoriteCount: '0',
          commentCount: String(v.threads.reduce((n, t) => n + 1 + t.replies.length, 0)),
        },
      }));
    return {
      kind: 'youtube#videoListResponse',
      etag: 'etag',
      items,
      pageInfo: { totalResults: items.length, resultsPerPage: items.length },
    };
  }

  private listChannels(q: Record<string, string>) {
    const all = [...this.channels.values()];
    const found = q.id
      ? all.filter((c) => q.id.split(',').includes(c.id))
      : q.forHandle
        ? all.filter(
            (c) =>
              c.handle.toLowerCase() ===
              (q.forHandle.startsWith('@') ? q.forHandle : `@${q.forHandle}`).toLowerCase(),
          )
        : q.forUsername
          ? all.filter((c) => c.username?.toLowerCase() === q.forUsername.toLowerCase())
          : [];
    const items = found.map((c) => ({
      kind: 'youtube#channel',
      etag: `etag-${c.id}`,
      id: c.id,
      snippet: {
        title: c.title,
        description: '',
        customUrl: c.handle.toLowerCase(),
        publishedAt: '2015-01-01T00:00:00Z',
      },
      contentDetails: { relatedPlaylists: { likes: '', uploads: `UU${c.id.slice(2)}` } },
    }));
    // The API omits `items` when nothing matched.
    return {
      kind: 'youtube#channelListResponse',
      etag: 'etag',
      pageInfo: { totalResults: items.length, resultsPerPage: 5 },
      ...(items.length ? { items } : {}),
    };
  }

  private listPlaylistItems(q: Record<string, string>, reply: FastifyReply) {
    const channel = [...this.channels.values()].find((c) => `UU${c.id.slice(2)}` === q.playlistId);
    if (!channel)
      return this.error(
        reply,
        404,
        'youtube.playlistItem',
        'playlistNotFound',
        "The playlist identified with the request's playlistId parameter cannot be found.",
      );
    const max = Math.min(50, Number(q.maxResults ?? 5));
    const offset = pageToken.decode(q.pageToken);
    if (offset === null) return this.invalidPageToken(reply);
    const slice = channel.uploads.slice(offset, offset + max);
    const items = slice.map((videoId, i) => {
      const v = this.videos.get(videoId)!;
      return {
        kind: 'youtube#playlistItem',
        etag: `etag-pi-${videoId}`,
        id: `pi-${videoId}`,
        snippet: {
          publishedAt: v.publishedAt,
          channelId: channel.id,
          title: v.title,
          description: v.description,
          channelTitle: channel.title,
          playlistId: q.playlistId,
          position: offset + i,
          resourceId: { kind: 'youtube#video', videoId },
        },
        contentDetails: { videoId, videoPublishedAt: v.publishedAt },
      };
    });
    const next = nextPage(offset, max, channel.uploads.length);
    return {
      kind: 'youtube#playlistItemListResponse',
      etag: 'etag',
      ...next,
      items,
      pageInfo: { totalResults: channel.uploads.length, resultsPerPage: max },
    };
  }

  private commentResource(c: FakeYouTubeComment, videoId: string, channelId: string, parentId?: string) {
    return {
      kind: 'youtube#comment',
      etag: `etag-${c.id}`,
      id: c.id,
      snippet: {
        channelId,
        videoId,
        textDisplay: c.text,
        textOriginal: c.text,
        ...(parentId ? { parentId } : {}),
        authorDisplayName: c.authorDisplayName,
        authorProfileImageUrl: `https://yt3.ggpht.com/${c.authorChannelId}`,
        authorChannelUrl: `http://www.youtube.com/${c.authorDisplayName}`,
        authorChannelId: { value: c.authorChannelId },
        canRate: true,
        viewerRating: 'none',
        likeCount: c.likeCount,
        publishedAt: c.publishedAt,
        updatedAt: c.publishedAt,
      },
    };
  }

  private listThreads(q: Record<string, string>, reply: FastifyReply) {
    const video = this.videos.get(q.videoId);
    if (!video)
      return this.error(
        reply,
        404,
        'youtube.commentThread',
        'videoNotFound',
        'The video identified by the videoId parameter could not be found.',
      );
    if (video.private)
      return this.error(
        reply,
        403,
        'youtube.commentThread',
        'forbidden',
        'The comment thread could not be retrieved due to insufficient permissions.',
      );
    if (video.commentsDisabled) {
      return this.error(
        reply,
        403,
        'youtube.commentThread',
        'commentsDisabled',
        'The video identified by the videoId parameter has disabled comments.',
      );
    }
    const max = Math.min(100, Number(q.maxResults ?? 20));
    const offset = pageToken.decode(q.pageToken);
    if (offset === null) return this.invalidPageToken(reply);
    const withReplies = (q.part ?? '').split(',').includes('replies');
    const items = video.threads.slice(offset, offset + max).map((t) => ({
      kind: 'youtube#commentThread',
      etag: `etag-t-${t.top.id}`,
      id: t.top.id,
      snippet: {
        channelId: video.channelId,
        videoId: video.id,
        topLevelComment: this.commentResource(t.top, video.id, video.channelId),
        canReply: true,
        totalReplyCount: t.replies.length,
        isPublic: true,
      },
      ...(withReplies && t.replies.length > 0
        ? {
            replies: {
              comments: t.replies
                .slice(0, INLINE_REPLIES)
                .map((r) => this.commentResource(r, video.id, video.channelId, t.top.id)),
            },
          }
        : {}),
    }));
    const next = nextPage(offset, max, video.threads.length);
    return {
      kind: 'youtube#commentThreadListResponse',
      etag: 'etag',
      ...next,
      pageInfo: { totalResults: items.length, resultsPerPage: max },
      items,
    };
  }

  private listComments(q: Record<string, string>, reply: FastifyReply) {
    let found: { video: FakeYouTubeVideo; thread: FakeYouTubeThread } | null = null;
    for (const video of this.videos.values()) {
      const thread = video.threads.find((t) => t.top.id === q.parentId);
      if (thread) found = { video, thread };
    }
    if (!found)
      return this.error(
        reply,
        404,
        'youtube.comment',
        'commentNotFound',
        'One or more of the comments identified by the parentId parameter could not be found.',
      );
    const max = Math.min(100, Number(q.maxResults ?? 20));
    const offset = pageToken.decode(q.pageToken);
    if (offset === null) return this.invalidPageToken(reply);
    const items = found.thread.replies
      .slice(offset, offset + max)
      .map((r) => this.commentResource(r, found.video.id, found.video.channelId, found.thread.top.id));
    const next = nextPage(offset, max, found.thread.replies.length);
    return {
      kind: 'youtube#commentListResponse',
      etag: 'etag',
      ...next,
      pageInfo: { totalResults: items.length, resultsPerPage: max },
      items,
    };
  }
}
