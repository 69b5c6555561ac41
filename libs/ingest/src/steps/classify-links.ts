import type { ContentProvider, LinkClassification, Platform } from '@analyst/contracts';
import type { RejectedEntry } from '@analyst/domain-content';
import { classifyPostLink } from '@analyst/links';

/** A link that passed classification. `link` is what the client sent; `normalized` is the dedupe key. */
export interface LinkCandidate {
  link: string;
  normalized: string;
  platform: Platform;
}

/** A request's links after step 1: the ones to go on with, and the ones rejected (never charged). */
export interface ClassifiedLinks {
  candidates: LinkCandidate[];
  rejected: RejectedEntry[];
}

/**
 * Step 1 of the add path: every link classified by host; the unsupported ones are rejected and never
 * charged. A platform this deployment has no provider for (ANALYST_PROVIDERS routes it to `none`) is
 * unsupported too.
 */
export function classifyPostLinks(
  links: string[],
  provider: Pick<ContentProvider, 'supports'>,
): ClassifiedLinks {
  const result: ClassifiedLinks = { candidates: [], rejected: [] };
  for (const link of links) {
    const c: LinkClassification = classifyPostLink(link);
    if (c.ok && provider.supports?.(c.platform) === false)
      result.rejected.push({ link, reason: 'unsupported_platform' });
    else if (c.ok) result.candidates.push({ link, normalized: c.normalized, platform: c.platform });
    else result.rejected.push({ link, reason: c.reason });
  }
  return result;
}
