import type { ParsedLink, Recognised } from '../parsed-link';

const URN = /^urn:li:(activity|share|ugcPost):(\d{10,25})$/i;
const SLUG_ID = /(?:^|[-_])(activity|share|ugcPost)-(\d{10,25})(?:-|$)/i;
const URN_KIND: Record<string, string> = { activity: 'activity', share: 'share', ugcpost: 'ugcPost' };

function post(kind: string, id: string): Recognised {
  return {
    kind: 'post',
    platform: 'linkedin',
    normalized: `https://linkedin.com/feed/update/urn:li:${URN_KIND[kind.toLowerCase()]}:${id}`,
  };
}

/**
 * Posts only (profiles `/in/` and company pages are `unsupported_platform`). Feed updates
 * `/feed/update/urn:li:activity|share|ugcPost:<id>` and the slugged `/posts/<author>_<title>-activity-<id>-<code>`
 * both normalize to `https://linkedin.com/feed/update/urn:li:<kind>:<id>`. Articles `/pulse/<slug>`
 * are posts keyed by their lowercased slug. `lnkd.in` short links are not accepted (they can point anywhere).
 */
export function linkedin(link: ParsedLink): Recognised | null {
  const s = link.segments;
  if (s[0] === 'feed' && s[1] === 'update' && s.length === 3) {
    const m = URN.exec(s[2]);
    return m ? post(m[1], m[2]) : null;
  }
  if (s[0] === 'posts' && s.length === 2) {
    const m = SLUG_ID.exec(s[1]);
    return m ? post(m[1], m[2]) : null;
  }
  if (s[0] === 'pulse' && s.length === 2 && /^[A-Za-z0-9-]{3,200}$/.test(s[1])) {
    return {
      kind: 'post',
      platform: 'linkedin',
      normalized: `https://linkedin.com/pulse/${s[1].toLowerCase()}`,
    };
  }
  return null;
}
