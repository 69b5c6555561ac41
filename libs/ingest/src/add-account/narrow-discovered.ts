import type { DiscoveredPost } from '@analyst/contracts';
import { normalizeLink } from '@analyst/links';
import type { AppliedAccountFilters } from '@analyst/domain-content';

/** Step 3 of discovery: minViews, minLikes, postType, then duplicates dropped and the list cut to `limit`. */
export function narrowDiscovered(posts: DiscoveredPost[], filters: AppliedAccountFilters): DiscoveredPost[] {
  const seen = new Set<string>();
  const out: DiscoveredPost[] = [];
  for (const p of posts) {
    if (filters.minViews !== null && p.engagement.views < filters.minViews) continue;
    if (filters.minLikes !== null && p.engagement.likes < filters.minLikes) continue;
    if (filters.postType !== null && p.postType !== filters.postType) continue;
    const key = normalizeLink(p.link) ?? p.link;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
    if (out.length >= filters.limit) break;
  }
  return out;
}
