import type { ParsedLink, Recognised } from '../parsed-link';

const SHORTCODE = /^[A-Za-z0-9_-]{5,40}$/;
const USERNAME = /^[A-Za-z0-9._]{1,30}$/;
const MEDIA_PATHS = new Set(['p', 'reel', 'reels', 'tv']);
/** First path segments that are Instagram's own pages, never usernames. */
const RESERVED = new Set([
  'explore',
  'accounts',
  'direct',
  'stories',
  'about',
  'developer',
  'legal',
  'privacy',
  'terms',
  'web',
  'challenge',
  'emails',
  'session',
  'login',
  'signup',
  'api',
  'graphql',
  'oauth',
  'directory',
  'press',
  'blog',
  'static',
  ...MEDIA_PATHS,
]);
const PROFILE_TABS = new Set(['reels', 'tagged', 'guides', 'saved', 'feed']);
const HOST = 'https://instagram.com';

function post(code: string): Recognised {
  return { kind: 'post', platform: 'instagram', normalized: `${HOST}/p/${code}` };
}

/**
 * Posts, reels and IGTV share one media shortcode namespace, so `/p/`, `/reel/`, `/reels/`, `/tv/`
 * and `/<user>/p/<code>` all normalize to `https://instagram.com/p/<code>` (shortcodes are case-sensitive).
 * Stories `/stories/<user>/<id>` are posts of type story. Profiles `/<user>` are accounts (lowercased).
 * `igshid`, `igsh`, `img_index`, `utm_*` and every other param are dropped.
 */
export function instagram(link: ParsedLink): Recognised | null {
  const s = link.segments;
  if (s.length === 0) return null;
  const first = s[0].toLowerCase();
  if (MEDIA_PATHS.has(first)) return s.length === 2 && SHORTCODE.test(s[1]) ? post(s[1]) : null;
  if (first === 'stories') return story(s);
  if (RESERVED.has(first) || !USERNAME.test(s[0])) return null;
  return underUsername(s, first);
}

/** `/stories/<user>/<id>`: a post of type story (highlights are not a user's). */
function story(s: readonly string[]): Recognised | null {
  if (s.length !== 3 || !USERNAME.test(s[1]) || s[1] === 'highlights' || !/^\d{5,25}$/.test(s[2]))
    return null;
  return { kind: 'post', platform: 'instagram', normalized: `${HOST}/stories/${s[1].toLowerCase()}/${s[2]}` };
}

/** `/<user>/p/<code>` (a post), `/<user>` and its profile tabs (the account, lowercased). */
function underUsername(s: readonly string[], user: string): Recognised | null {
  if (s.length === 3 && MEDIA_PATHS.has(s[1].toLowerCase()) && SHORTCODE.test(s[2])) return post(s[2]);
  if (s.length === 1 || (s.length === 2 && PROFILE_TABS.has(s[1].toLowerCase()))) {
    return { kind: 'account', platform: 'instagram', normalized: `${HOST}/${user}` };
  }
  return null;
}
