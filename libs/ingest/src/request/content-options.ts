import { normalizeTags, type JobOptions } from '@analyst/domain-content';
import type { ContentOptionsDto } from './content-request.dto';

/** The options every content route shares (tags, credit source, capture), normalized once. */
export type ContentOptions = JobOptions;

/** A content request's options as its job records them: `commentLimit` is ignored with `fullRead`. */
export function contentOptions(body: ContentOptionsDto): ContentOptions {
  const fullRead = body.capture?.fullRead === true;
  return {
    tags: normalizeTags(body.tags ?? []),
    source: body.credits?.source ?? 'auto',
    fullRead,
    commentLimit: fullRead ? null : (body.capture?.commentLimit ?? null),
    perPost: fullRead ? 5 : 1,
  };
}
