import { readFileSync } from 'node:fs';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { ConfigError } from './config-error';
import { crossVariableProblems } from './config-problems';

export { ConfigError } from './config-error';
export { trustedProxies } from './trusted-proxies';

const toNumber = ({ value }: { value: unknown }) => (value === undefined ? undefined : Number(value));

/** Process configuration, read once from the environment and validated before anything starts. */
export class AnalystConfig {
  @IsIn(['standalone', 'distributed'])
  ANALYST_MODE: 'standalone' | 'distributed' = 'standalone';

  @Transform(({ value }) => (value === undefined ? undefined : Number(value)))
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 8080;

  @IsString()
  @MinLength(1)
  HOST = '0.0.0.0';

  @IsString()
  @MinLength(1)
  ANALYST_DATA_DIR = './data';

  /** Fixes the demo key's secret so scripts can use a known value. */
  @IsOptional()
  @Matches(/^ak_[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}$/, {
    message:
      'ANALYST_DEMO_KEY must look like ak_<id>.<secret> (id of 8+ and secret of 16+ url-safe characters)',
  })
  ANALYST_DEMO_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'ANALYST_ADMIN_TOKEN must be at least 16 characters' })
  ANALYST_ADMIN_TOKEN?: string;

  /**
   * Creates the demo team (Enterprise, 1,000 credits, a printed full-scope key) on an empty log.
   * Off unless asked, so a production gateway never mints a key nobody requested; `npm start` asks.
   */
  @Transform(({ value }) =>
    value === undefined
      ? undefined
      : value === '1' || value === 'true'
        ? true
        : value === '0' || value === 'false'
          ? false
          : value,
  )
  @IsIn([true, false], { message: 'ANALYST_DEMO must be 1 or 0' })
  ANALYST_DEMO = false;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** auto: readable lines on a terminal, JSON lines otherwise (read by prettyLogs before the app starts). */
  @IsIn(['auto', 'json', 'pretty'], { message: 'LOG_FORMAT must be auto, json or pretty' })
  LOG_FORMAT = 'auto';

  @IsOptional()
  @IsString()
  KAFKA_BROKERS?: string;

  @IsOptional()
  @IsString()
  MONGO_URL?: string;

  @IsOptional()
  @IsString()
  EVENTSTORE_URL?: string;

  /**
   * `sqlite:<path>`: the distributed apps share this SQLite log file (one machine only, e.g. the
   * multi-process test); `postgres://…` (or `postgresql://…`): the log in that PostgreSQL database.
   * Must be asked for, so a missing EVENTSTORE_URL is an error, not a fallback.
   */
  @IsOptional()
  @Matches(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, {
    message: 'ANALYST_EVENTSTORE must be sqlite:<path of the shared log file> or postgres://<database url>',
  })
  ANALYST_EVENTSTORE?: string;

  /** PEM file of the CA that signed the EventStoreDB server certificate (TLS). */
  @IsOptional()
  @IsString()
  EVENTSTORE_CA_FILE?: string;

  /** PEM file of the CA that signed the Kafka brokers' certificates (TLS). */
  @IsOptional()
  @IsString()
  KAFKA_CA_FILE?: string;

  /** PEM file of the CA that signed the MongoDB server certificates (TLS). */
  @IsOptional()
  @IsString()
  MONGO_CA_FILE?: string;

  /** Database holding the read models and checkpoints in the distributed topology. */
  @IsString()
  @MinLength(1)
  MONGO_DB = 'analyst';

  /** `client` for FerretDB (see MongoReadStore's ConditionalWrites); `server` for MongoDB. */
  @IsIn(['server', 'client'])
  MONGO_CONDITIONAL_WRITES: 'server' | 'client' = 'server';

  /** Partitions of the topics a service creates; the ceiling on useful consumer replicas. */
  @Transform(({ value }) => (value === undefined ? undefined : Number(value)))
  @IsInt()
  @Min(1)
  @Max(1000)
  KAFKA_PARTITIONS = 4;

  /** Replicas of every topic the apps create: 1 for one broker (dev), 3 in production. */
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(16)
  KAFKA_REPLICATION_FACTOR = 1;

  /** Topic config `min.insync.replicas` of created topics (the broker's default when unset). */
  @IsOptional()
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(16)
  KAFKA_MIN_INSYNC_REPLICAS?: number;

  /** Prefix of every Kafka topic and consumer group: lets installations or test runs share a cluster. */
  @Matches(/^[a-z0-9._-]{0,40}$/, {
    message: 'KAFKA_NAMESPACE may hold only a-z, 0-9, ".", "_" and "-" (at most 40)',
  })
  KAFKA_NAMESPACE = '';

  /** Name of this process's service: its consumer groups, client id and log label. */
  @Matches(/^[a-z][a-z0-9-]{1,40}$/, { message: 'ANALYST_SERVICE must be a lower-case name like "ingest"' })
  ANALYST_SERVICE = 'standalone';

  /**
   * The in-memory comment index (analysis and sampling) drops the rows of replaced post versions
   * once at least this many are dead and they are half of all rows: lower trades CPU for memory.
   */
  @Transform(({ value }) => (value === undefined ? undefined : Number(value)))
  @IsInt()
  @Min(1)
  ANALYSIS_COMPACT_MIN_DEAD_ROWS = 100_000;

  /**
   * Memory budget of an analysis or sampling replica's cache of teams' comment columns, in MiB
   * (least recently used teams are dropped beyond it). The replica's memory is about its idle
   * footprint plus this, plus the teams in use by requests at that moment.
   */
  @Transform(toNumber)
  @IsInt({ message: 'ANALYST_READ_CACHE_MB must be an integer number of MiB' })
  @Min(1, { message: 'ANALYST_READ_CACHE_MB must be at least 1' })
  @Max(1_048_576, { message: 'ANALYST_READ_CACHE_MB must be at most 1048576' })
  ANALYST_READ_CACHE_MB = 256;

  /**
   * A running analysis job with no event for this long has lost its worker (a replica that died or
   * hangs): any analysis replica takes it over. A worker reports progress every third of it.
   */
  @Transform(toNumber)
  @IsInt({ message: 'ANALYST_JOB_STALE_MS must be an integer number of milliseconds' })
  @Min(1_000, { message: 'ANALYST_JOB_STALE_MS must be at least 1000' })
  @Max(3_600_000, { message: 'ANALYST_JOB_STALE_MS must be at most 3600000' })
  ANALYST_JOB_STALE_MS = 30_000;

  /** Key of the HMAC that signs the gateway's internal auth header (distributed topology). */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'ANALYST_INTERNAL_SECRET must be at least 32 characters' })
  ANALYST_INTERNAL_SECRET?: string;

  /** How long the gateway waits for a service's answer; a 100-link add takes about 20 s on 2 idle cores. */
  @Transform(toNumber)
  @IsInt({ message: 'ANALYST_UPSTREAM_TIMEOUT_MS must be an integer number of milliseconds' })
  @Min(1_000)
  @Max(600_000)
  ANALYST_UPSTREAM_TIMEOUT_MS = 120_000;

  /**
   * Failed authentication attempts one client address may make in a UTC minute before every request
   * from it is 429 `auth_attempts_exceeded` (the spec's 30). Raise it only where many clients share
   * one address that ANALYST_TRUST_PROXY cannot tell apart, or for a conformance run that probes auth.
   */
  @Transform(toNumber)
  @IsInt({ message: 'ANALYST_AUTH_FAILURES_PER_MINUTE must be a whole number of attempts' })
  @Min(1)
  @Max(1_000_000)
  ANALYST_AUTH_FAILURES_PER_MINUTE = 30;

  /**
   * Comma-separated CIDRs (or addresses) of the proxies in front of this process. Only a request
   * whose socket peer is in one of them has its client address read from X-Forwarded-For.
   */
  @IsOptional()
  @IsString()
  ANALYST_TRUST_PROXY?: string;

  /** The relay lease lapses this long after its holder's last renewal; a standby takes over then. */
  @Transform(toNumber)
  @IsInt()
  @Min(1_000)
  @Max(300_000)
  ANALYST_RELAY_LEASE_TTL_MS = 6_000;

  /** How often the holder renews the lease and a standby checks whether it lapsed. */
  @Transform(toNumber)
  @IsInt()
  @Min(100)
  @Max(100_000)
  ANALYST_RELAY_LEASE_RENEW_MS = 2_000;

  /** Provider per platform (`youtube=youtube,reddit=reddit,*=simulated`); see providerRoutes for the defaults. */
  @IsOptional()
  @IsString()
  ANALYST_PROVIDERS?: string;

  /** YouTube Data API v3 key (the youtube provider). */
  @IsOptional()
  @IsString()
  @MinLength(10, { message: 'YOUTUBE_API_KEY looks too short to be an API key' })
  YOUTUBE_API_KEY?: string;

  /** Reddit "script"/"web" app credentials for application-only OAuth, and the User-Agent Reddit asks apps to send. */
  @IsOptional()
  @IsString()
  REDDIT_CLIENT_ID?: string;

  @IsOptional()
  @IsString()
  REDDIT_CLIENT_SECRET?: string;

  @IsOptional()
  @IsString()
  @MinLength(10, {
    message: 'REDDIT_USER_AGENT must describe the app, like "server:analyst:1.0 (by /u/you)"',
  })
  REDDIT_USER_AGENT?: string;

  /** API roots, for tests and egress proxies. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'ANALYST_YOUTUBE_BASE_URL must be an http(s) URL' })
  ANALYST_YOUTUBE_BASE_URL?: string;

  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'ANALYST_REDDIT_BASE_URL must be an http(s) URL' })
  ANALYST_REDDIT_BASE_URL?: string;

  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'ANALYST_REDDIT_TOKEN_URL must be an http(s) URL' })
  ANALYST_REDDIT_TOKEN_URL?: string;
}

/**
 * What the Kafka bus needs beyond brokers and partitions: topic durability and the CA to trust.
 * Spread into the KafkaBus options (names as KafkaBus reads them: `replicationFactor`,
 * `minInsyncReplicas` → topic config `min.insync.replicas`, `ssl` → kafkajs `ssl`).
 */
export interface KafkaDeliverySettings {
  replicationFactor: number;
  minInsyncReplicas?: number;
  ssl?: { ca: string[] };
}

export function kafkaDeliverySettings(config: AnalystConfig): KafkaDeliverySettings {
  return {
    replicationFactor: config.KAFKA_REPLICATION_FACTOR ?? 1,
    ...(config.KAFKA_MIN_INSYNC_REPLICAS ? { minInsyncReplicas: config.KAFKA_MIN_INSYNC_REPLICAS } : {}),
    ...(config.KAFKA_CA_FILE ? { ssl: { ca: [readFileSync(config.KAFKA_CA_FILE, 'utf8')] } } : {}),
  };
}

/** Variables without a default on AnalystConfig's instance, read when set. */
const OPTIONAL_VARIABLES = [
  'ANALYST_DEMO_KEY',
  'ANALYST_ADMIN_TOKEN',
  'KAFKA_BROKERS',
  'MONGO_URL',
  'EVENTSTORE_URL',
  'ANALYST_INTERNAL_SECRET',
  'ANALYST_EVENTSTORE',
  'EVENTSTORE_CA_FILE',
  'KAFKA_CA_FILE',
  'MONGO_CA_FILE',
  'KAFKA_MIN_INSYNC_REPLICAS',
  'ANALYST_TRUST_PROXY',
  'ANALYST_PROVIDERS',
  'YOUTUBE_API_KEY',
  'REDDIT_CLIENT_ID',
  'REDDIT_CLIENT_SECRET',
  'REDDIT_USER_AGENT',
  'ANALYST_YOUTUBE_BASE_URL',
  'ANALYST_REDDIT_BASE_URL',
  'ANALYST_REDDIT_TOKEN_URL',
];

/** The configuration's variables that `env` sets to a non-empty value. */
function pickVariables(env: Record<string, string | undefined>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const key of [...Object.keys(new AnalystConfig()), ...OPTIONAL_VARIABLES]) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  return picked;
}

/** Validates `env`; throws one ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AnalystConfig {
  const config = plainToInstance(AnalystConfig, pickVariables(env));
  const errors = validateSync(config, { forbidUnknownValues: false });
  const problems = [
    ...errors.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`)),
    ...crossVariableProblems(config),
  ];
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  return config;
}

export const ANALYST_CONFIG = Symbol('AnalystConfig');
