/** The parts of the Data API v3 resources this adapter reads (field names as the API reference spells them). */
export interface ListResponse<T> {
  nextPageToken?: string;
  items?: T[];
}

export interface VideoResource {
  id: string;
  snippet: {
    publishedAt: string;
    channelId: string;
    title: string;
    description: string;
    channelTitle: string;
    thumbnails?: Record<string, { url: string }>;
    liveBroadcastContent?: string;
  };
  statistics?: { viewCount?: string; likeCount?: string; commentCount?: string };
}

export interface ChannelResource {
  id: string;
  snippet?: { title: string; customUrl?: string };
  contentDetails?: { relatedPlaylists?: { uploads?: string } };
}

export interface PlaylistItemResource {
  snippet: { title: string; description: string; publishedAt: string };
  contentDetails: { videoId: string; videoPublishedAt?: string };
}

export interface CommentResource {
  id: string;
  snippet: {
    textDisplay: string;
    textOriginal?: string;
    parentId?: string;
    authorDisplayName: string;
    authorChannelId?: { value: string };
    likeCount: number;
    publishedAt: string;
  };
}

export interface CommentThreadResource {
  id: string;
  snippet: { topLevelComment: CommentResource; totalReplyCount: number };
  replies?: { comments: CommentResource[] };
}
