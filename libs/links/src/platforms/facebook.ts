import type { ParsedLink, Recognised } from '../parsed-link';

const PAGE_NAME = /^[A-Za-z0-9.-]{3,80}$/;
const NUMERIC = /^\d{5,25}$/;
/** Post ids: numeric, or the opaque case-sensitive `pfbid…` form. */
const POST_ID = /^(?:\d{5,25}|pfbid[A-Za-z0-9]{20,80})$/;
const SHARE_CODE = /^[A-Za-z0-9]{6,24}$/;
/** First segments that are not pages: personal profiles, groups, stories, events and Facebook's own paths. */
const NOT_A_PAGE = new Set([
  'profile.php',
  'groups',
  'stories',
  'story.php',
  'events',
  'marketplace',
  'gaming',
  'messages',
  'friends',
  'notifications',
  'settings',
  'help',
  'login',
  'login.php',
  'privacy',
  'policies',
  'hashtag',
  'search',
  'bookmarks',
  'saved',
  'pages',
  'fundraisers',
  'live',
  'memories',
  'home.php',
  'me',
  'sharer',
  'sharer.php',
  'dialog',
  'plugins',
  'ads',
  'business',
  'photo',
  'photo.php',
  'watch',
  'reel',
  'share',
  'permalink.php',
  'people',
  'pg',
  'media',
  'video.php',
]);
const PAGE_TABS = new Set([
  'about',
  'photos',
  'videos',
  'reels',
  'posts',
  'community',
  'reviews',
  'events',
  'mentions',
  'followers',
]);
const HOST = 'https://facebook.com';

function post(path: string): Recognised {
  return { kind: 'post', platform: 'facebook', normalized: `${HOST}/${path}` };
}
function page(name: string): Recognised {
  return { kind: 'account', platform: 'facebook', normalized: `${HOST}/${name}` };
}

/**
 * Pages only. Posts: `/<page>/posts/<id>`, page videos and `/watch?v=` (→ `/watch?v=<id>`, one video id
 * namespace), `/reel/<id>`, photos (→ `/photo?fbid=<id>`), `permalink.php?story_fbid=&id=`, and share links
 * (`/share/p|v|r/<code>`, `fb.watch/<code>`, kept as is since they cannot be resolved offline).
 * Accounts: `/<page>` (lowercased), `/people/<name>/<id>` and `/pg/<page>`. Personal profiles
 * (`profile.php`), stories, groups and events are `unsupported_platform`.
 */
export function facebook(link: ParsedLink): Recognised | null {
  const s = link.segments;
  if (link.host === 'fb.watch') return fbWatch(s);
  if (s.length === 0) return null;
  const first = s[0].toLowerCase();
  const special = BY_FIRST_SEGMENT.get(first);
  return special ? special(s, link.params) : pagePath(s, first);
}

type SegmentParser = (s: readonly string[], p: URLSearchParams) => Recognised | null;

/** `fb.watch/<code>` share links. */
function fbWatch(s: readonly string[]): Recognised | null {
  return s.length === 1 && SHARE_CODE.test(s[0])
    ? { kind: 'post', platform: 'facebook', normalized: `https://fb.watch/${s[0]}` }
    : null;
}

/** `/watch?v=<id>`. */
function watch(s: readonly string[], p: URLSearchParams): Recognised | null {
  const v = p.get('v');
  return v && NUMERIC.test(v) && s.length === 1 ? post(`watch?v=${v}`) : null;
}

/** `/reel/<id>`. */
function reel(s: readonly string[]): Recognised | null {
  return s.length === 2 && NUMERIC.test(s[1]) ? post(`reel/${s[1]}`) : null;
}

/** `/share/p|v|r/<code>`. */
function share(s: readonly string[]): Recognised | null {
  return s.length === 3 && ['p', 'v', 'r'].includes(s[1]) && SHARE_CODE.test(s[2])
    ? post(`share/${s[1]}/${s[2]}`)
    : null;
}

/** `/photo?fbid=<id>` and `/photo.php?fbid=<id>`. */
function photo(s: readonly string[], p: URLSearchParams): Recognised | null {
  const fbid = p.get('fbid');
  return fbid && NUMERIC.test(fbid) && s.length === 1 ? post(`photo?fbid=${fbid}`) : null;
}

/** `permalink.php` and `story.php` with `story_fbid` and `id`. */
function permalink(_s: readonly string[], p: URLSearchParams): Recognised | null {
  const story = p.get('story_fbid');
  const owner = p.get('id');
  return story && owner && POST_ID.test(story) && NUMERIC.test(owner)
    ? post(`permalink.php?story_fbid=${story}&id=${owner}`)
    : null;
}

/** `/people/<name>/<id>`. */
function people(s: readonly string[]): Recognised | null {
  return s.length >= 3 && NUMERIC.test(s[2]) ? page(s[2]) : null;
}

/** `/pg/<page>`. */
function pg(s: readonly string[]): Recognised | null {
  return s.length >= 2 && PAGE_NAME.test(s[1]) ? page(s[1].toLowerCase()) : null;
}

/** First segments with a form of their own (checked before the page paths). */
const BY_FIRST_SEGMENT = new Map<string, SegmentParser>([
  ['watch', watch],
  ['reel', reel],
  ['share', share],
  ['photo', photo],
  ['photo.php', photo],
  ['permalink.php', permalink],
  ['story.php', permalink],
  ['people', people],
  ['pg', pg],
]);

/** `/<page>` (and its tabs), `/<page>/posts/<id>`, page videos and page photos. */
function pagePath(s: readonly string[], first: string): Recognised | null {
  if (NOT_A_PAGE.has(first) || !PAGE_NAME.test(s[0])) return null;
  const name = first;
  if (s.length === 1 || (s.length === 2 && PAGE_TABS.has(s[1].toLowerCase()))) return page(name);
  const section = s[1].toLowerCase();
  const last = s[s.length - 1];
  if (section === 'posts' && s.length === 3 && POST_ID.test(s[2])) return post(`${name}/posts/${s[2]}`);
  // /<page>/videos/<id> and /<page>/videos/<slug>/<id>
  if (section === 'videos' && s.length <= 4 && NUMERIC.test(last)) return post(`watch?v=${last}`);
  // /<page>/photos/<album>/<id> and /<page>/photos/<id>
  if (section === 'photos' && s.length <= 4 && NUMERIC.test(last)) return post(`photo?fbid=${last}`);
  return null;
}
