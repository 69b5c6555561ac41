import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import type { AnalystConfig } from './analyst-config';
import { providerProblems } from './provider-routes';
import { trustedProxies } from './trusted-proxies';

/**
 * What no single variable's rule can see: variables that must agree with each other or with the
 * disk. Each problem is one line of loadConfig's ConfigError, in this order.
 */
export function crossVariableProblems(config: AnalystConfig): string[] {
  return [
    ...distributedProblems(config),
    ...kafkaReplicationProblems(config),
    ...caFileProblems(config),
    ...relayLeaseProblems(config),
    ...trustProxyProblems(config),
    ...providerProblems(config),
  ];
}

/** The shared infrastructure a distributed service cannot run without. */
function distributedProblems(config: AnalystConfig): string[] {
  if (config.ANALYST_MODE !== 'distributed') return [];
  const problems: string[] = [];
  for (const key of ['KAFKA_BROKERS', 'MONGO_URL', 'ANALYST_INTERNAL_SECRET'] as const) {
    if (!config[key]) problems.push(`${key}: required when ANALYST_MODE=distributed`);
  }
  // No silent fallback to a local file: a service on its own SQLite log would see nobody's events.
  if (!config.EVENTSTORE_URL && !config.ANALYST_EVENTSTORE) {
    problems.push(
      'EVENTSTORE_URL: required when ANALYST_MODE=distributed (or ANALYST_EVENTSTORE=sqlite:<path> to share one SQLite log on one machine, or ANALYST_EVENTSTORE=postgres://<database url>)',
    );
  }
  if (config.EVENTSTORE_URL && config.ANALYST_EVENTSTORE) {
    problems.push(
      'ANALYST_EVENTSTORE: set either EVENTSTORE_URL or ANALYST_EVENTSTORE (sqlite:<path> or postgres://…), not both',
    );
  }
  return problems;
}

function kafkaReplicationProblems(config: AnalystConfig): string[] {
  const replication = config.KAFKA_REPLICATION_FACTOR;
  const minInsync = config.KAFKA_MIN_INSYNC_REPLICAS;
  if (minInsync !== undefined && Number.isInteger(replication) && minInsync > replication) {
    // Every produce with acks=all would be refused: no partition could ever have that many in sync.
    return [`KAFKA_MIN_INSYNC_REPLICAS: ${minInsync} is more than KAFKA_REPLICATION_FACTOR (${replication})`];
  }
  return [];
}

/** Each CA file given must hold a certificate, and its connection string must not turn TLS off. */
function caFileProblems(config: AnalystConfig): string[] {
  const problems: string[] = [];
  for (const [key, url] of [
    ['EVENTSTORE_CA_FILE', config.EVENTSTORE_URL],
    ['KAFKA_CA_FILE', undefined],
    ['MONGO_CA_FILE', config.MONGO_URL],
  ] as const) {
    const path = config[key];
    if (!path) continue;
    const problem = caFileProblem(path);
    if (problem) problems.push(`${key}: ${problem}`);
    if (tlsOff(url)) problems.push(`${key}: given, but the connection string turns TLS off (tls=false)`);
  }
  return problems;
}

function relayLeaseProblems(config: AnalystConfig): string[] {
  const renew = config.ANALYST_RELAY_LEASE_RENEW_MS;
  const ttl = config.ANALYST_RELAY_LEASE_TTL_MS;
  if (Number.isInteger(renew) && Number.isInteger(ttl) && renew * 2 >= ttl) {
    // The holder needs at least two renewals inside one TTL, or one slow round trip hands the lease over.
    return [
      `ANALYST_RELAY_LEASE_RENEW_MS: ${renew} must be less than half of ANALYST_RELAY_LEASE_TTL_MS (${ttl})`,
    ];
  }
  return [];
}

function trustProxyProblems(config: AnalystConfig): string[] {
  try {
    trustedProxies(config.ANALYST_TRUST_PROXY);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

/** Why a CA file cannot be used, or null when it is a readable file holding a PEM certificate. */
function caFileProblem(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return `${path} is not a file`;
    accessSync(path, constants.R_OK);
    if (!readFileSync(path, 'utf8').includes('-----BEGIN CERTIFICATE-----'))
      return `${path} holds no PEM certificate`;
    return null;
  } catch (error) {
    return `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
}

/** True when a connection string turns TLS off explicitly (`tls=false` / `ssl=false`). */
function tlsOff(url: string | undefined): boolean {
  return /[?&](tls|ssl)=false(&|$)/i.test(url ?? '');
}
