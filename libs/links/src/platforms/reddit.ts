import type { ParsedLink, Recognised } from '../parsed-link';

const POST_ID = /^[A-Za-z0-9]{4,10}$/;
const SUBREDDIT = /^[A-Za-z0-9_]{2,21}$/;
const SHARE_CODE = /^[A-Za-z0-9]{6,16}$/;

function post(id: string): Recognised {
  // Reddit post ids are base36 and case-insensitive; the subreddit and slug are not part of the identity.
  return { kind: 'post', platform: 'reddit', normalized: `https://reddit.com/comments/${id.toLowerCase()}` };
}

/**
 * Posts only (accounts and subreddits are `unsupported_platform`). Every post spelling,
 * `/r/<sub>/comments/<id>/<slug>/`, comment permalinks under it, `/user/<u>/comments/<id>`,
 * `/comments/<id>`, `/gallery/<id>`, `redd.it/<id>` and old./new./np./i. hosts, normalizes to
 * `https://reddit.com/comments/<id>`. Mobile share links `/r/<sub>/s/<code>` are kept as they are.
 */
export function reddit(link: ParsedLink): Recognised | null {
  const s = link.segments;
  if (link.host === 'redd.it') return s.length === 1 && POST_ID.test(s[0]) ? post(s[0]) : null;
  if (s.length === 0) return null;
  if ((s[0] === 'comments' || s[0] === 'gallery') && s[1] && POST_ID.test(s[1])) return post(s[1]);
  if (['r', 'u', 'user'].includes(s[0].toLowerCase()) && s[1]) return underSubredditOrUser(s);
  return null;
}

/** `/r/<sub>/comments/<id>/…` or `/user/<u>/comments/<id>` (with a slug and a comment id at most), or a share link. */
function underSubredditOrUser(s: readonly string[]): Recognised | null {
  if (s[2] === 'comments' && s[3] && POST_ID.test(s[3]) && s.length <= 6) return post(s[3]);
  if (s[0] === 'r' && s[2] === 's' && s.length === 4 && SUBREDDIT.test(s[1]) && SHARE_CODE.test(s[3])) {
    return {
      kind: 'post',
      platform: 'reddit',
      normalized: `https://reddit.com/r/${s[1].toLowerCase()}/s/${s[3]}`,
    };
  }
  return null;
}
