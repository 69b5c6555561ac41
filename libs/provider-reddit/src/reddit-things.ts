/** The parts of Reddit's Listing and Thing JSON this adapter reads (names as the API sends them). */
export interface Thing<K extends string = string, D = Record<string, unknown>> {
  kind: K;
  data: D;
}

export interface Listing<T> {
  kind: 'Listing';
  data: { after: string | null; children: T[] };
}

export interface LinkData {
  id: string;
  author: string;
  title: string;
  selftext: string;
  created_utc: number;
  score: number;
  num_comments: number;
  num_crossposts?: number;
  is_self: boolean;
  is_video: boolean;
  is_gallery?: boolean;
  post_hint?: string;
  thumbnail?: string;
  view_count?: number | null;
}

export interface CommentData {
  id: string;
  parent_id: string;
  author: string;
  body: string;
  score: number;
  created_utc: number;
  is_submitter: boolean;
  collapsed?: boolean;
  replies: Listing<CommentOrMore> | '';
}

export interface MoreData {
  id: string;
  parent_id: string;
  count: number;
  children: string[];
}

export type CommentOrMore = Thing<'t1', CommentData> | Thing<'more', MoreData>;
