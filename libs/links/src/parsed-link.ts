import type { Platform } from '@analyst/contracts';

/** A URL reduced to what classification needs: a bare host, decoded path segments and the query. */
export interface ParsedLink {
  /** Lowercased host with `www.`, `m.`, `mobile.` (and similar) prefixes and a trailing dot removed. */
  host: string;
  segments: string[];
  params: URLSearchParams;
}

/** What a platform rule returns for a link it recognises; null means "not a supported shape". */
export interface Recognised {
  kind: 'post' | 'account';
  platform: Platform;
  /** Canonical path (with query when the platform keys identity on it), appended to the canonical host. */
  normalized: string;
}

export type PlatformRule = (link: ParsedLink) => Recognised | null;

const SUBDOMAIN_PREFIXES = /^(?:www\d?|m|mobile|web|touch)\./;

export function bareHost(hostname: string): string {
  let host = hostname.toLowerCase().replace(/\.$/, '');
  // Repeat: "m.www.example.com" style hosts turn up in pasted links.
  while (SUBDOMAIN_PREFIXES.test(host)) host = host.replace(SUBDOMAIN_PREFIXES, '');
  return host;
}

export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
