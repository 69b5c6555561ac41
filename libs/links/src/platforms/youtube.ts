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
  const [first, second, third] = link.segments;
  if (link.host === 'youtu.be') {
    return first && VIDEO_ID.test(first) && link.segments.length === 1 ? post(first) : null;
  }
  if (first === 'watch' && link.segments.length === 1) {
    const v = link.params.get('v');
    return v && VIDEO_ID.test(v) ? post(v) : null;
  }
  if (first && VIDEO_PATHS.has(first.toLowerCase())) {
    return second && VIDEO_ID.test(second) && link.segments.length === 2 ? post(second) : null;
  }
  const tabOk = third === undefined || (CHANNEL_TABS.has(third.toLowerCase()) && link.segments.length === 3);
  if (first && HANDLE.test(first)) {
    const tabAfterHandle =
      second === undefined || (CHANNEL_TABS.has(second.toLowerCase()) && link.segments.length === 2);
    return tabAfterHandle ? account(first.toLowerCase()) : null;
  }
  if (first === 'channel' && second && CHANNEL_ID.test(second) && tabOk) return account(`channel/${second}`);
  if ((first === 'c' || first === 'user') && second && LEGACY_NAME.test(second) && tabOk) {
    return account(`${first}/${second.toLowerCase()}`);
  }
  return null;
}
