import type { FetchedComment, ProviderPost } from '@analyst/contracts';
import type { CommentResource, VideoResource } from './youtube-resources';

/** Display names are `@handle` since 2023; the product stores handles without the @. */
export function handleOf(displayName: string): string {
  return displayName.startsWith('@') ? displayName.slice(1) : displayName;
}

const count = (value: string | undefined): number => (value === undefined ? 0 : Number(value));

/** Title and description together: what a keyword filter and the scorer read as the creator's words. */
export function captionOf(title: string, description: string): string {
  return description.trim() === '' ? title : `${title}\n\n${description}`;
}

export function mapVideo(video: VideoResource, link: string, creatorHandle: string | null): ProviderPost {
  const s = video.snippet;
  const thumbnails = s.thumbnails ?? {};
  const thumbnail =
    (thumbnails.high ?? thumbnails.medium ?? thumbnails.default ?? Object.values(thumbnails)[0])?.url ?? null;
  return {
    link,
    platform: 'youtube',
    creator: { username: creatorHandle ?? s.channelTitle, name: s.channelTitle },
    title: s.title,
    caption: captionOf(s.title, s.description),
    description: s.description === '' ? null : s.description,
    // The API reports no share count; commentCount is absent when comments are off.
    engagement: {
      views: count(video.statistics?.viewCount),
      likes: count(video.statistics?.likeCount),
      comments: count(video.statistics?.commentCount),
      shares: 0,
    },
    postedAt: new Date(s.publishedAt).toISOString(),
    // The API does not say whether a video is a Short; every upload is reported as a video.
    postType: 'video',
    thumbnail,
  };
}

export function mapComment(
  comment: CommentResource,
  parentId: string | null,
  channelId: string,
): FetchedComment {
  const s = comment.snippet;
  return {
    id: comment.id,
    parentId,
    authorUsername: handleOf(s.authorDisplayName),
    authorIsCreator: s.authorChannelId?.value === channelId,
    body: s.textDisplay,
    likes: s.likeCount,
    postedAt: new Date(s.publishedAt).toISOString(),
    // The API lists only published comments; held-for-review ones never reach an API key.
    hidden: false,
  };
}
