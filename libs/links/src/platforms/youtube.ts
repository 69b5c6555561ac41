import type { ParsedLink, Recognised } from '../parsed-link';

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
const HANDLE = /^@[A-Za-z0-9._-]{3,30}$/;
const LEGACY_NAME = /^[A-Za-z0-9._-]{1,100}$/;
/** Tabs of a channel page that still name the channel. */
const CHANNEL_TABS = new Set([
  'videos',
  'shorts',
  'streams',
  'featured',
  'playlists',
  'community',
  'about',
  'live',
  'podcasts',
  'posts',
  'releases',
]);
/** Paths that carry the video id as the next segment. */
const VIDEO_PATHS = new Set(['shorts', 'live', 'embed', 'v', 'e']);

const HOST = 'https://youtube.com';

function post(id: string): Recognised {
  return { kind: 'post', platform: 'youtube', normalized: `${HOST}/watch?v=${id}` };
}
function account(path: string): Recognised {
  return { kind: 'account', platform: 'youtube', normalized: `${HOST}/${path}` };
}

/**
 * Videos (watch, shorts, live, embed, youtu.be) normalize to `https://youtube.com/watch?v=<id>`:
 * video ids are case-sensitive; `t`, `si`, `feature`, `list`, `index`, `pp` are dropped.
 * Channels: `@handle` (lowercased), `/channel/UC…` (kept as is), legacy `/c/` and `/user/` names (lowercased).
 */
export function youtube(link: ParsedLink): Recognised | null {
  const s = link.segments;
  if (link.host === 'youtu.be') return s[0] && VIDEO_ID.test(s[0]) && s.length === 1 ? post(s[0]) : null;
  if (s[0] === 'watch' && s.length === 1) {
    const v = link.params.get('v');
    return v && VIDEO_ID.test(v) ? post(v) : null;
  }
  if (s[0] && VIDEO_PATHS.has(s[0].toLowerCase())) {
    return s[1] && VIDEO_ID.test(s[1]) && s.length === 2 ? post(s[1]) : null;
  }
  return channel(s);
}

/** Whether the segment at `at`, when present, is a channel tab ending the path. */
function endsInTab(s: readonly string[], at: number): boolean {
  return s[at] === undefined || (CHANNEL_TABS.has(s[at].toLowerCase()) && s.length === at + 1);
}

/** `/@handle`, `/channel/UC…` and legacy `/c/` and `/user/` names, each optionally with a tab. */
function channel(s: readonly string[]): Recognised | null {
  const [first, second] = s;
  if (first && HANDLE.test(first)) return endsInTab(s, 1) ? account(first.toLowerCase()) : null;
  if (!second || !endsInTab(s, 2)) return null;
  if (first === 'channel' && CHANNEL_ID.test(second)) return account(`channel/${second}`);
  if ((first === 'c' || first === 'user') && LEGACY_NAME.test(second)) {
    return account(`${first}/${second.toLowerCase()}`);
  }
  return null;
}
