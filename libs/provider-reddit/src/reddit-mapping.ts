import type { FetchedComment, PostType, ProviderPost } from '@analyst/contracts';
import type { CommentData, LinkData } from './reddit-things';

const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

function postType(d: LinkData): PostType {
  if (d.is_gallery) return 'carousel';
  if (d.is_video) return 'video';
  if (d.post_hint === 'image') return 'image';
  return d.is_self ? 'text' : 'other';
}

export function mapLink(d: LinkData, link: string): ProviderPost {
  return {
    link,
    platform: 'reddit',
    creator: { username: d.author, name: d.author },
    title: d.title,
    caption: d.selftext.trim() === '' ? d.title : `${d.title}\n\n${d.selftext}`,
    description: d.selftext === '' ? null : d.selftext,
    // Score is Reddit's net vote count (the nearest thing to likes); crossposts stand for shares; views are not public.
    engagement: {
      views: d.view_count ?? 0,
      likes: Math.max(0, d.score),
      comments: d.num_comments,
      shares: d.num_crossposts ?? 0,
    },
    postedAt: iso(d.created_utc),
    postType: postType(d),
    thumbnail: d.thumbnail?.startsWith('http') ? d.thumbnail : null,
  };
}

/** Removed by moderators or deleted by the author: Reddit keeps a placeholder to hold the thread together. */
export function isGone(d: CommentData): boolean {
  return d.author === '[deleted]' && (d.body === '[removed]' || d.body === '[deleted]');
}

export function mapComment(d: CommentData, parentId: string | null): FetchedComment {
  return {
    id: d.id,
    parentId,
    authorUsername: d.author,
    authorIsCreator: d.is_submitter,
    body: d.body,
    likes: Math.max(0, d.score),
    postedAt: iso(d.created_utc),
    // Collapsed: Reddit folds the comment away (low score or crowd control).
    hidden: d.collapsed === true,
  };
}
