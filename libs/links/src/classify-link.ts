import type { LinkClassification, Platform } from '@analyst/contracts';
import { bareHost, safeDecode, type ParsedLink, type PlatformRule } from './parsed-link';
import { facebook } from './platforms/facebook';
import { instagram } from './platforms/instagram';
import { linkedin } from './platforms/linkedin';
import { reddit } from './platforms/reddit';
import { threads } from './platforms/threads';
import { tiktok } from './platforms/tiktok';
import { x } from './platforms/x';
import { youtube } from './platforms/youtube';

/** Bare hosts (after `www.`/`m.`/`mobile.` are dropped) and the rule that reads their paths. */
const RULES_BY_HOST: Record<string, PlatformRule> = {
  'youtube.com': youtube,
  'music.youtube.com': youtube,
  'youtube-nocookie.com': youtube,
  'youtu.be': youtube,
  'tiktok.com': tiktok,
  'vm.tiktok.com': tiktok,
  'vt.tiktok.com': tiktok,
  'instagram.com': instagram,
  'instagr.am': instagram,
  'facebook.com': facebook,
  'fb.com': facebook,
  'fb.watch': facebook,
  'business.facebook.com': facebook,
  'x.com': x,
  'twitter.com': x,
  'reddit.com': reddit,
  'old.reddit.com': reddit,
  'new.reddit.com': reddit,
  'np.reddit.com': reddit,
  'i.reddit.com': reddit,
  'redd.it': reddit,
  'linkedin.com': linkedin,
  'threads.net': threads,
  'threads.com': threads,
};

/** Which platforms accept account URLs (POST /content/accounts/add). Reddit and LinkedIn take posts only. */
export const ACCOUNT_PLATFORMS: readonly Platform[] = [
  'youtube',
  'tiktok',
  'instagram',
  'facebook',
  'x',
  'threads',
];

// A scheme-less paste like "youtube.com/watch?v=…" or "www.tiktok.com/@a" is treated as https.
const SCHEMELESS_HOST = /^[a-z0-9][a-z0-9-]*(\.[a-z0-9-]+)+(?::\d+)?(?:[/?#]|$)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function parse(raw: string): ParsedLink | null {
  const trimmed = raw.trim();
  if (trimmed.length === 0 || /\s/.test(trimmed)) return null;
  let candidate = trimmed;
  if (candidate.startsWith('//')) candidate = `https:${candidate}`;
  else if (!HAS_SCHEME.test(candidate) || /^[a-z0-9.-]+\.[a-z]{2,}:\d/i.test(candidate)) {
    if (!SCHEMELESS_HOST.test(candidate)) return null;
    candidate = `https://${candidate}`;
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname.includes('.')) return null;
  const segments = url.pathname
    .split('/')
    .filter((s) => s.length > 0)
    .map(safeDecode);
  return { host: bareHost(url.hostname), segments, params: url.searchParams };
}

/**
 * Classifies a pasted link by host and path: a post or an account on one of the eight platforms,
 * with a normalized form that is the dedupe key (https, canonical host, identity params only).
 */
export function classifyLink(raw: string): LinkClassification {
  if (typeof raw !== 'string') return { ok: false, reason: 'invalid_url' };
  const link = parse(raw);
  if (!link) return { ok: false, reason: 'invalid_url' };
  const rule = RULES_BY_HOST[link.host];
  if (!rule) return { ok: false, reason: 'unsupported_platform' };
  const recognised = rule(link);
  if (!recognised) return { ok: false, reason: 'unsupported_platform' };
  return { ok: true, ...recognised };
}

/** For POST /content/posts/add: an account URL (or anything that is not a post) is `unsupported_platform`. */
export function classifyPostLink(raw: string): LinkClassification {
  const c = classifyLink(raw);
  if (c.ok && c.kind !== 'post') return { ok: false, reason: 'unsupported_platform' };
  return c;
}

/** For POST /content/accounts/add: a post URL is `unsupported_platform`. */
export function classifyAccountLink(raw: string): LinkClassification {
  const c = classifyLink(raw);
  if (c.ok && c.kind !== 'account') return { ok: false, reason: 'unsupported_platform' };
  return c;
}

/** The dedupe key of a link, or null when it does not classify. */
export function normalizeLink(raw: string): string | null {
  const c = classifyLink(raw);
  return c.ok ? c.normalized : null;
}
