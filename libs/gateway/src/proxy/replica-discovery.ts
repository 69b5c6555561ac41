import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { UpstreamUrl } from './upstream-urls';

/** One process behind an upstream list: where to send requests, and a name every gateway agrees on. */
export interface Replica {
  /** `address:port` (plus the base path, if any): the rendezvous hash's input and the metrics label. */
  id: string;
  /** The base URL a forwarded path is appended to. */
  base: string;
}

/** Every address a host name has (A and AAAA records, as the system resolver answers them). */
export type ResolveHost = (host: string) => Promise<string[]>;

export const resolveWithSystem: ResolveHost = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** Answers that mean the name has no address now (a headless service with no ready pod), not a failed lookup. */
const NO_ADDRESS = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

function hostPort(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

function replicaAt(url: UpstreamUrl, host: string): Replica {
  const at = hostPort(host, url.port);
  return { id: `${at}${url.basePath}`, base: `${url.protocol}//${at}${url.basePath}` };
}

/**
 * The replicas of one service: each URL of its list, its host name resolved into one replica per
 * address (a Kubernetes headless service's name yields its ready pods), re-read on every refresh.
 * A lookup that fails for another reason than "no such name" keeps the addresses last seen, so a
 * DNS hiccup does not empty the pool.
 */
export class ReplicaDiscovery {
  private readonly byUrl = new Map<string, Replica[]>();

  constructor(
    private readonly urls: readonly UpstreamUrl[],
    private readonly resolve: ResolveHost,
    private readonly onLookupError: (url: UpstreamUrl, error: Error) => void = () => undefined,
  ) {
    for (const url of urls) if (!url.expand) this.byUrl.set(url.url, [replicaAt(url, url.host)]);
  }

  /** The replicas as of the last refresh, each address once, in list order. */
  replicas(): Replica[] {
    const seen = new Map<string, Replica>();
    for (const url of this.urls) for (const r of this.byUrl.get(url.url) ?? []) seen.set(r.id, r);
    return [...seen.values()];
  }

  /** Resolves every host name again; returns the replicas now known. */
  async refresh(): Promise<Replica[]> {
    await Promise.all(
      this.urls
        .filter((url) => url.expand)
        .map(async (url) => {
          try {
            const addresses = [...new Set(await this.resolve(url.host))].sort();
            this.byUrl.set(
              url.url,
              addresses.map((address) => replicaAt(url, address)),
            );
          } catch (raw) {
            const error = raw as NodeJS.ErrnoException;
            if (error.code !== undefined && NO_ADDRESS.has(error.code)) this.byUrl.set(url.url, []);
            this.onLookupError(url, error);
          }
        }),
    );
    return this.replicas();
  }
}
