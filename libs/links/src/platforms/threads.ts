import type { ParsedLink, Recognised } from '../parsed-link';

const USER = /^@[A-Za-z0-9._]{1,30}$/;
const CODE = /^[A-Za-z0-9_-]{5,40}$/;
const HOST = 'https://threads.com';

/**
 * threads.net moved to threads.com; both normalize to `https://threads.com`. Posts
 * `/@user/post/<code>` (handle lowercased, code case-sensitive, `xmt`/`igshid` dropped); accounts `/@user`.
 */
export function threads(link: ParsedLink): Recognised | null {
  const s = link.segments;
  if (s.length === 0 || !USER.test(s[0])) return null;
  const user = s[0].toLowerCase();
  if (s.length === 1) return { kind: 'account', platform: 'threads', normalized: `${HOST}/${user}` };
  if (s.length === 3 && s[1] === 'post' && CODE.test(s[2]))
    return { kind: 'post', platform: 'threads', normalized: `${HOST}/${user}/post/${s[2]}` };
  return null;
}
