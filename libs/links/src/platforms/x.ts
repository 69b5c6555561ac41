import type { ParsedLink, Recognised } from '../parsed-link';

const USER = /^[A-Za-z0-9_]{1,15}$/;
const STATUS_ID = /^\d{1,20}$/;
/** First segments that are X's own pages, never handles. */
const RESERVED = new Set([
  'home',
  'explore',
  'i',
  'search',
  'settings',
  'notifications',
  'messages',
  'hashtag',
  'intent',
  'share',
  'compose',
  'tos',
  'privacy',
  'login',
  'logout',
  'signup',
  'account',
  'jobs',
  'download',
  'who_to_follow',
  'lists',
  'communities',
]);
const PROFILE_TABS = new Set([
  'with_replies',
  'media',
  'likes',
  'highlights',
  'articles',
  'superfollows',
  'verified_followers',
  'followers',
  'following',
]);
/** What may follow `/status/<id>`: media viewers and analytics of the same post. */
const STATUS_TAILS = new Set(['photo', 'video', 'analytics', 'likes', 'retweets', 'quotes', 'history']);
const HOST = 'https://x.com';

/**
 * twitter.com and x.com (and mobile.) are one host: `https://x.com`. Posts: `/<user>/status(es)/<id>`
 * (handle lowercased; `/photo/1`, `/video/1`, `s`, `t`, `ref_src` dropped) and `/i/web/status/<id>`,
 * `/i/status/<id>` (→ `/i/status/<id>`, the handle being unknown). Accounts: `/<user>`.
 */
export function x(link: ParsedLink): Recognised | null {
  const s = link.segments;
  if (s.length === 0) return null;
  if (s[0] === 'i') return statusWithoutHandle(s);
  if (RESERVED.has(s[0].toLowerCase()) || !USER.test(s[0])) return null;
  return underHandle(s);
}

/** `/i/web/status/<id>` and `/i/status/<id>`, the handle unknown. */
function statusWithoutHandle(s: readonly string[]): Recognised | null {
  const id = s[1] === 'web' ? s[3] : s[2];
  const statusAt = s[1] === 'web' ? 2 : 1;
  return s[statusAt] === 'status' && id && STATUS_ID.test(id)
    ? { kind: 'post', platform: 'x', normalized: `${HOST}/i/status/${id}` }
    : null;
}

/** `/<user>` and its profile tabs (the account), `/<user>/status(es)/<id>` and its viewers (a post). */
function underHandle(s: readonly string[]): Recognised | null {
  const user = s[0].toLowerCase();
  if (s.length === 1 || (s.length === 2 && PROFILE_TABS.has(s[1].toLowerCase()))) {
    return { kind: 'account', platform: 'x', normalized: `${HOST}/${user}` };
  }
  if ((s[1] === 'status' || s[1] === 'statuses') && STATUS_ID.test(s[2] ?? '')) {
    const tailOk = s.length === 3 || (STATUS_TAILS.has(s[3]) && s.length <= 5);
    return tailOk ? { kind: 'post', platform: 'x', normalized: `${HOST}/${user}/status/${s[2]}` } : null;
  }
  return null;
}
