import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

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
    message: 'ANALYST_DEMO_KEY must look like ak_<id>.<secret> (id of 8+ and secret of 16+ url-safe characters)',
  })
  ANALYST_DEMO_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'ANALYST_ADMIN_TOKEN must be at least 16 characters' })
  ANALYST_ADMIN_TOKEN?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @IsOptional()
  @IsString()
  KAFKA_BROKERS?: string;

  @IsOptional()
  @IsString()
  MONGO_URL?: string;

  @IsOptional()
  @IsString()
  EVENTSTORE_URL?: string;

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

  /** Prefix of every Kafka topic and consumer group: lets installations or test runs share a cluster. */
  @Matches(/^[a-z0-9._-]{0,40}$/, { message: 'KAFKA_NAMESPACE may hold only a-z, 0-9, ".", "_" and "-" (at most 40)' })
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

  /** Key of the HMAC that signs the gateway's internal auth header (distributed topology). */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'ANALYST_INTERNAL_SECRET must be at least 32 characters' })
  ANALYST_INTERNAL_SECRET?: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Validates `env`; throws one ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AnalystConfig {
  const known = Object.keys(new AnalystConfig());
  const picked: Record<string, string> = {};
  const optional = ['ANALYST_DEMO_KEY', 'ANALYST_ADMIN_TOKEN', 'KAFKA_BROKERS', 'MONGO_URL', 'EVENTSTORE_URL', 'ANALYST_INTERNAL_SECRET'];
  for (const key of [...known, ...optional]) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  const config = plainToInstance(AnalystConfig, picked);
  const errors = validateSync(config, { forbidUnknownValues: false });
  const problems = errors.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`));
  if (config.ANALYST_MODE === 'distributed') {
    for (const key of ['KAFKA_BROKERS', 'MONGO_URL', 'ANALYST_INTERNAL_SECRET'] as const) {
      if (!config[key]) problems.push(`${key}: required when ANALYST_MODE=distributed`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  return config;
}

export const ANALYST_CONFIG = Symbol('AnalystConfig');
