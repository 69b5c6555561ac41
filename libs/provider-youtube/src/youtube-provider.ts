import {
  type AccountQuery,
  type ContentProvider,
  type DiscoveredPost,
  type FetchOptions,
  type FetchResult,
  type FetchedComment,
} from '@analyst/contracts';
import { classifyLink } from '@analyst/links';
import { credentialHealth, discoverWithFaults, fetchFaultResult, keywordTest } from '@analyst/provider-core';
import { YouTubeApi, YouTubeGone, type YouTubeApiOptions } from './youtube-api';
import { captionOf, handleOf, mapComment, mapVideo } from './youtube-mapping';
import type {
  ChannelResource,
  CommentResource,
  CommentThreadResource,
  ListResponse,
  PlaylistItemResource,
  VideoResource,
} from './youtube-resources';

const PAGE = 100;
/** playlistItems.list and videos.list take at most 50 per call. */
const UPLOADS_PAGE = 50;

/** An upload discovery keeps: its video, when it was posted, its caption. */
interface PickedUpload {
  videoId: string;
  postedAt: string;
  caption: string;
}

/** The video id and normalized link of a YouTube video link; null for any other link. */
function videoLinkOf(link: string): { videoId: string; normalized: string } | null {
  const classified = classifyLink(link);
  if (!classified.ok || classified.kind !== 'post' || classified.platform !== 'youtube') return null;
  const videoId = new URL(classified.normalized).searchParams.get('v');
  return videoId ? { videoId, normalized: classified.normalized } : null;
}

/**
 * YouTube through the Data API v3 with an API key: the video from videos.list, its comment section
 * from commentThreads.list (100 a page, inline replies) and comments.list for threads with more
 * replies than the thread carries inline; accounts through the channel's uploads playlist.
 */
export class YouTubeProvider implements ContentProvider {
  readonly api: YouTubeApi;

  constructor(options: YouTubeApiOptions) {
    this.api = new YouTubeApi(options);
  }

  /** Not ready while the API refuses the key: every fetch would fail. */
  health(): { ready: boolean; detail?: string } {
    return credentialHealth(this.api.authProblem);
  }

  async fetchPost(link: string, options: FetchOptions): Promise<FetchResult> {
    const video = videoLinkOf(link);
    if (!video) return { status: 'failed', reason: `not a YouTube video link: ${link}` };
    const limit = options.fullRead ? Infinity : (options.commentLimit ?? Infinity);
    try {
      return await this.readVideo(video.videoId, video.normalized, limit);
    } catch (error) {
      return fetchFaultResult(
        error,
        'youtube',
        (fault) => `youtube: video ${video.videoId} cannot be read (${fault.message})`,
      );
    }
  }

  /** The video, its channel's handle and up to `limit` of its comments. */
  private async readVideo(videoId: string, normalized: string, limit: number): Promise<FetchResult> {
    const videos = await this.api.list<ListResponse<VideoResource>>('videos', {
      part: 'snippet,statistics',
      id: videoId,
    });
    const video = videos.items?.[0];
    // videos.list leaves out private, deleted and unknown videos alike.
    if (!video)
      return {
        status: 'unreachable',
        reason: `youtube: video ${videoId} is private, deleted or does not exist`,
      };
    const channels = await this.api.list<ListResponse<ChannelResource>>('channels', {
      part: 'snippet',
      id: video.snippet.channelId,
    });
    const handle = channels.items?.[0]?.snippet?.customUrl;
    const post = mapVideo(video, normalized, handle ? handleOf(handle) : null);
    const comments = await this.comments(videoId, video.snippet.channelId, limit);
    if (comments === 'disabled')
      return {
        status: 'ok',
        post: { ...post, engagement: { ...post.engagement, comments: 0 } },
        comments: [],
      };
    return { status: 'ok', post, comments };
  }

  /** Threads in the API's order, each followed by its replies, cut at `limit` comments in all. */
  private async comments(
    videoId: string,
    channelId: string,
    limit: number,
  ): Promise<FetchedComment[] | 'disabled'> {
    const out: FetchedComment[] = [];
    let pageToken: string | undefined;
    while (out.length < limit) {
      let page: ListResponse<CommentThreadResource>;
      try {
        page = await this.api.list('commentThreads', {
          part: 'snippet,replies',
          videoId,
          maxResults: String(PAGE),
          textFormat: 'plainText',
          ...(pageToken ? { pageToken } : {}),
        });
      } catch (error) {
        // Comments turned off is the platform's answer "this section is empty", not a failure.
        if (error instanceof YouTubeGone && error.reason === 'commentsDisabled') return 'disabled';
        throw error;
      }
      for (const thread of page.items ?? []) {
        if (out.length >= limit) break;
        out.push(mapComment(thread.snippet.topLevelComment, null, channelId));
        const inline = thread.replies?.comments ?? [];
        const replies =
          thread.snippet.totalReplyCount > inline.length
            ? await this.replies(thread.id, limit - out.length)
            : inline;
        for (const reply of replies.slice(0, limit - out.length))
          out.push(mapComment(reply, thread.id, channelId));
      }
      pageToken = page.nextPageToken;
      if (!pageToken) break;
    }
    return out;
  }

  private async replies(parentId: string, limit: number): Promise<CommentResource[]> {
    const out: CommentResource[] = [];
    let pageToken: string | undefined;
    while (out.length < limit) {
      const page = await this.api.list<ListResponse<CommentResource>>('comments', {
        part: 'snippet',
        parentId,
        maxResults: String(PAGE),
        textFormat: 'plainText',
        ...(pageToken ? { pageToken } : {}),
      });
      out.push(...(page.items ?? []));
      pageToken = page.nextPageToken;
      if (!pageToken) break;
    }
    return out;
  }

  /**
   * The channel's uploads (newest first) within since/until and matching the keywords, up to
   * `limit`, with views and likes from videos.list. Single attempts: the discovery worker retries.
   */
  async discoverAccount(accountUrl: string, query: AccountQuery): Promise<DiscoveredPost[]> {
    return discoverWithFaults(() => this.discover(accountUrl, query));
  }

  private async discover(accountUrl: string, query: AccountQuery): Promise<DiscoveredPost[]> {
    const channel = await this.channel(accountUrl);
    const uploads = channel?.contentDetails?.relatedPlaylists?.uploads;
    if (!uploads) return [];
    const picked = await this.pickUploads(uploads, query);
    const stats = await this.statistics(picked.map((p) => p.videoId));
    // An upload videos.list leaves out is private or deleted: not a post anyone can add.
    return picked
      .filter((p) => stats.has(p.videoId))
      .map((p) => {
        const s = stats.get(p.videoId)!.statistics ?? {};
        return {
          link: `https://youtube.com/watch?v=${p.videoId}`,
          postedAt: p.postedAt,
          postType: 'video',
          caption: p.caption,
          engagement: { views: Number(s.viewCount ?? 0), likes: Number(s.likeCount ?? 0) },
        };
      });
  }

  /** The uploads playlist's videos (newest first) within since/until and matching the keywords, up to the limit. */
  private async pickUploads(uploads: string, query: AccountQuery): Promise<PickedUpload[]> {
    const since = query.since ? Date.parse(query.since) : -Infinity;
    const until = query.until ? Date.parse(query.until) : Infinity;
    const matches = keywordTest(query.keywords);
    const picked: PickedUpload[] = [];
    let pageToken: string | undefined;
    while (picked.length < query.limit) {
      const page = await this.api.list<ListResponse<PlaylistItemResource>>(
        'playlistItems',
        {
          part: 'snippet,contentDetails',
          playlistId: uploads,
          maxResults: String(UPLOADS_PAGE),
          ...(pageToken ? { pageToken } : {}),
        },
        false,
      );
      for (const item of page.items ?? []) {
        const at = Date.parse(item.contentDetails.videoPublishedAt ?? item.snippet.publishedAt);
        if (at < since) return picked; // uploads are newest first: nothing older can match
        const caption = captionOf(item.snippet.title, item.snippet.description);
        if (at > until || !matches(caption)) continue;
        picked.push({ videoId: item.contentDetails.videoId, postedAt: new Date(at).toISOString(), caption });
        if (picked.length >= query.limit) return picked;
      }
      pageToken = page.nextPageToken;
      if (!pageToken) break;
    }
    return picked;
  }

  /** videos.list's statistics of these videos, by id (50 a call); a private or deleted one is left out. */
  private async statistics(videoIds: string[]): Promise<Map<string, VideoResource>> {
    const stats = new Map<string, VideoResource>();
    for (let i = 0; i < videoIds.length; i += UPLOADS_PAGE) {
      const ids = videoIds.slice(i, i + UPLOADS_PAGE);
      const page = await this.api.list<ListResponse<VideoResource>>(
        'videos',
        { part: 'statistics', id: ids.join(',') },
        false,
      );
      for (const v of page.items ?? []) stats.set(v.id, v);
    }
    return stats;
  }

  /** `@handle` → forHandle, `/channel/UC…` → id, `/user/x` → forUsername, `/c/x` → forHandle then forUsername. */
  private async channel(accountUrl: string): Promise<ChannelResource | null> {
    const classified = classifyLink(accountUrl);
    if (!classified.ok || classified.kind !== 'account' || classified.platform !== 'youtube') return null;
    const [first, second] = new URL(classified.normalized).pathname.split('/').filter(Boolean);
    const lookups: Record<string, string>[] = first.startsWith('@')
      ? [{ forHandle: first }]
      : first === 'channel'
        ? [{ id: second }]
        : first === 'user'
          ? [{ forUsername: second }]
          : [{ forHandle: `@${second}` }, { forUsername: second }];
    for (const lookup of lookups) {
      const page = await this.api.list<ListResponse<ChannelResource>>(
        'channels',
        { part: 'snippet,contentDetails', ...lookup },
        false,
      );
      if (page.items?.[0]) return page.items[0];
    }
    return null;
  }
}
