import { isIP } from 'node:net';
import type { UpstreamService } from './upstreams';

/** The services the distributed gateway forwards to, each named by ANALYST_UPSTREAM_<SERVICE>. */
export const UPSTREAM_SERVICES: readonly UpstreamService[] = [
  'ingest',
  'ledger',
  'analysis',
  'sampling',
  'notifier',
];

/** The variable that lists a service's replicas. */
export function upstreamVariable(service: UpstreamService): string {
  return `ANALYST_UPSTREAM_${service.toUpperCase()}`;
}

/**
 * One URL of an upstream list. `host` is what is resolved for replicas: an IP literal or
 * `localhost` is one replica as written, any other name yields one replica per address.
 */
export interface UpstreamUrl {
  /** As written, without a trailing slash. */
  url: string;
  protocol: 'http:' | 'https:';
  /** Without IPv6 brackets. */
  host: string;
  port: number;
  /** A path prefix every forwarded path goes under ('' for none). */
  basePath: string;
  /**
   * Whether the host name is resolved into its addresses. An https URL keeps its name, since the
   * certificate names the host, not the address; an IP literal or localhost is one process.
   */
  expand: boolean;
}

/** Parses one comma-separated upstream list; `problems` names each bad entry (the config-exit path prints them). */
export function parseUpstreamList(
  variable: string,
  text: string | undefined,
): { urls: UpstreamUrl[]; problems: string[] } {
  if (text === undefined || text.trim() === '')
    return {
      urls: [],
      problems: [`${variable}: required (e.g. http://host:8080 or http://a:8080,http://b:8080)`],
    };
  const urls: UpstreamUrl[] = [];
  const problems: string[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    if (entry === '') {
      problems.push(`${variable}: an empty entry in "${text}"; separate URLs with single commas`);
      continue;
    }
    const parsed = parseOne(entry);
    if (typeof parsed === 'string') problems.push(`${variable}: "${entry}" ${parsed}`);
    else if (urls.some((u) => u.url === parsed.url)) problems.push(`${variable}: "${entry}" is listed twice`);
    else urls.push(parsed);
  }
  return { urls, problems };
}

/** The parsed URL, or why it is not one the gateway can forward to. */
function parseOne(entry: string): UpstreamUrl | string {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return 'is not a URL; expected e.g. http://analysis:8080';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `is not http or https (${url.protocol})`;
  if (url.username || url.password) return 'carries credentials; the gateway signs its own requests';
  if (url.search || url.hash) return 'has a query or fragment; give a base URL';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') return 'has no host';
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const expand = url.protocol === 'http:' && isIP(host) === 0 && host !== 'localhost';
  const basePath = url.pathname.replace(/\/+$/, '');
  return {
    url: `${url.protocol}//${url.host}${basePath}`,
    protocol: url.protocol,
    host,
    port,
    basePath,
    expand,
  };
}

/** Every service's list, parsed; throws nothing, so the caller reports every problem at once. */
export function upstreamsFromEnv(env: Record<string, string | undefined>): {
  upstreams: Record<UpstreamService, UpstreamUrl[]>;
  problems: string[];
} {
  const problems: string[] = [];
  const upstreams = {} as Record<UpstreamService, UpstreamUrl[]>;
  for (const service of UPSTREAM_SERVICES) {
    const parsed = parseUpstreamList(upstreamVariable(service), env[upstreamVariable(service)]);
    upstreams[service] = parsed.urls;
    problems.push(...parsed.problems);
  }
  return { upstreams, problems };
}
