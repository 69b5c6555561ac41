import type { ParsedLink, Recognised } from '../parsed-link';

const USER = /^@[A-Za-z0-9._]{2,24}$/;
const NUMERIC_ID = /^\d{15,20}$/;
const SHORT_CODE = /^[A-Za-z0-9]{5,16}$/;
const HOST = 'https://tiktok.com';
const PROFILE_TABS = new Set(['video', 'photo']);

function post(path: string): Recognised {
  return { kind: 'post', platform: 'tiktok', normalized: `${HOST}/${path}` };
}

/**
 * `/@user/video/<id>` and `/@user/photo/<id>` keep the handle (lowercased; TikTok handles ignore case).
 * `/v/<id>(.html)` and `/embed(/v2)/<id>` have no handle and become `/v/<id>`; short links
 * (`vm.`/`vt.tiktok.com/<code>`, `/t/<code>`) are kept as they are, code case intact, because
 * their redirect cannot be resolved offline. All query params are tracking and are dropped.
 */
export function tiktok(link: ParsedLink): Recognised | null {
  const s = link.segments;
  if (link.host === 'vm.tiktok.com' || link.host === 'vt.tiktok.com') {
    return s.length === 1 && SHORT_CODE.test(s[0])
      ? { kind: 'post', platform: 'tiktok', normalized: `https://${link.host}/${s[0]}` }
      : null;
  }
  if (s.length === 0) return null;
  if (s[0] === 't' && s.length === 2 && SHORT_CODE.test(s[1])) return post(`t/${s[1]}`);
  if (s[0] === 'v' || s[0] === 'embed') return withoutHandle(s);
  return USER.test(s[0]) ? underHandle(s) : null;
}

/** `/v/<id>(.html)` and `/embed(/v2)/<id>`: a video without its handle, as `/v/<id>`. */
function withoutHandle(s: readonly string[]): Recognised | null {
  if (s[0] === 'v') {
    if (s.length !== 2) return null;
    const id = s[1].replace(/\.html$/, '');
    return NUMERIC_ID.test(id) ? post(`v/${id}`) : null;
  }
  const id = s[s.length - 1];
  return NUMERIC_ID.test(id) && s.length <= 3 ? post(`v/${id}`) : null;
}

/** `/@user` (an account) and `/@user/video/<id>`, `/@user/photo/<id>` (posts). */
function underHandle(s: readonly string[]): Recognised | null {
  const user = s[0].toLowerCase();
  if (s.length === 1) return { kind: 'account', platform: 'tiktok', normalized: `${HOST}/${user}` };
  if (s.length === 3 && PROFILE_TABS.has(s[1]) && NUMERIC_ID.test(s[2]))
    return post(`${user}/${s[1]}/${s[2]}`);
  return null;
}
