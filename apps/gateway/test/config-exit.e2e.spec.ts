import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

/** Runs an app's real entry point with `env` on top of a clean distributed setting; returns exit code and stderr. */
function run(
  app: string,
  env: Record<string, string | undefined>,
): { status: number | null; stderr: string } {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(base))
    if (
      key.startsWith('ANALYST_') ||
      key.startsWith('EVENTSTORE_') ||
      key.startsWith('KAFKA_') ||
      key.startsWith('MONGO_')
    )
      delete base[key];
  const result = spawnSync(
    process.execPath,
    ['-r', '@swc-node/register', join(ROOT, `apps/${app}/src/main.ts`)],
    {
      cwd: ROOT,
      env: {
        ...base,
        SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
        ANALYST_MODE: 'distributed',
        KAFKA_BROKERS: '127.0.0.1:1',
        MONGO_URL: 'mongodb://127.0.0.1:1/',
        ANALYST_INTERNAL_SECRET: 'exit-test-internal-secret-0123456789abcdef',
        ANALYST_UPSTREAM_INGEST: 'http://127.0.0.1:1',
        ANALYST_UPSTREAM_LEDGER: 'http://127.0.0.1:1',
        ANALYST_UPSTREAM_ANALYSIS: 'http://127.0.0.1:1',
        ANALYST_UPSTREAM_SAMPLING: 'http://127.0.0.1:1',
        ANALYST_UPSTREAM_NOTIFIER: 'http://127.0.0.1:1',
        LOG_LEVEL: 'silent',
        ...env,
      } as NodeJS.ProcessEnv,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  return { status: result.status, stderr: result.stderr };
}

describe('gateway entry point: bad configuration exits 2 before opening anything', () => {
  it('without EVENTSTORE_URL (no silent SQLite fallback), naming every bad variable', () => {
    const result = run('gateway', {
      ANALYST_TRUST_PROXY: '10.0.0.0/8,not-a-range',
      ANALYST_UPSTREAM_TIMEOUT_MS: '500',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('EVENTSTORE_URL: required when ANALYST_MODE=distributed');
    expect(result.stderr).toContain('ANALYST_TRUST_PROXY: "not-a-range" is not an IP address or CIDR range');
    expect(result.stderr).toContain(
      'ANALYST_UPSTREAM_TIMEOUT_MS: ANALYST_UPSTREAM_TIMEOUT_MS must not be less than 1000',
    );
  }, 60_000);

  it('with a malformed upstream list, naming the variable and the entry, beside the platform variables', () => {
    const result = run('gateway', {
      ANALYST_UPSTREAM_ANALYSIS: 'http://10.0.0.1:8080,analysis-2:8080',
      ANALYST_UPSTREAM_SAMPLING: 'http://sampling-1:8080,,http://sampling-2:8080',
      ANALYST_UPSTREAM_LEDGER: '',
      ANALYST_UPSTREAM_NOTIFIER: '',
      ANALYST_EVENTS_MAX_STREAMS_PER_KEY: '0',
      ANALYST_UPSTREAM_TIMEOUT_MS: '500',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'ANALYST_UPSTREAM_TIMEOUT_MS: ANALYST_UPSTREAM_TIMEOUT_MS must not be less than 1000',
    );
    expect(result.stderr).toContain(
      'ANALYST_UPSTREAM_ANALYSIS: "analysis-2:8080" is not http or https (analysis-2:)',
    );
    expect(result.stderr).toContain(
      'ANALYST_UPSTREAM_SAMPLING: an empty entry in "http://sampling-1:8080,,http://sampling-2:8080"; separate URLs with single commas',
    );
    expect(result.stderr).toContain(
      'ANALYST_UPSTREAM_LEDGER: required (e.g. http://host:8080 or http://a:8080,http://b:8080)',
    );
    expect(result.stderr).toContain(
      'ANALYST_UPSTREAM_NOTIFIER: required (e.g. http://host:8080 or http://a:8080,http://b:8080)',
    );
    expect(result.stderr).toContain(
      'ANALYST_EVENTS_MAX_STREAMS_PER_KEY: must be a whole number from 1 to 1000 (open event streams per API key), is "0"',
    );
  }, 60_000);

  it('with a CA file that does not exist', () => {
    const result = run('gateway', {
      EVENTSTORE_URL: 'esdb://127.0.0.1:1?tls=true',
      MONGO_CA_FILE: '/nonexistent/ca.pem',
      KAFKA_MIN_INSYNC_REPLICAS: '2',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('MONGO_CA_FILE: /nonexistent/ca.pem cannot be read (ENOENT)');
    expect(result.stderr).toContain('KAFKA_MIN_INSYNC_REPLICAS: 2 is more than KAFKA_REPLICATION_FACTOR (1)');
  }, 60_000);
});
