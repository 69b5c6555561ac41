import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

/** Runs the notifier's real entry point with `env` over a clean distributed setting; its exit code and stderr. */
function runNotifier(env: Record<string, string>): { status: number | null; stderr: string } {
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
    ['-r', '@swc-node/register', join(ROOT, 'apps/notifier/src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...base,
        SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
        ANALYST_MODE: 'distributed',
        // Nothing listens on port 1: had the start gone past the configuration, it would hang or fail otherwise.
        KAFKA_BROKERS: '127.0.0.1:1',
        MONGO_URL: 'mongodb://127.0.0.1:1/',
        EVENTSTORE_URL: 'esdb://127.0.0.1:1?tls=false',
        ANALYST_INTERNAL_SECRET: 'exit-test-internal-secret-0123456789abcdef',
        LOG_LEVEL: 'silent',
        ...env,
      } as NodeJS.ProcessEnv,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  return { status: result.status, stderr: result.stderr };
}

describe('notifier entry point: bad configuration exits 2 before opening anything', () => {
  it("names every bad notifier variable at once: the allowed networks' entry, the tick, the stream's heartbeat", () => {
    const result = runNotifier({
      ANALYST_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,not-a-range',
      ANALYST_NOTIFIER_TICK_MS: '5',
      ANALYST_EVENTS_HEARTBEAT_MS: 'soon',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('invalid configuration:');
    expect(result.stderr).toContain(
      "ANALYST_WEBHOOK_ALLOWED_NETWORKS: 'not-a-range' is not an IPv4 or IPv6 CIDR such as 10.0.0.0/8",
    );
    expect(result.stderr).toContain(
      'ANALYST_NOTIFIER_TICK_MS must be an integer number of milliseconds from 10 to 60000, got "5"',
    );
    expect(result.stderr).toContain(
      'ANALYST_EVENTS_HEARTBEAT_MS must be a whole number of milliseconds from 100 to 300000, is "soon"',
    );
  }, 60_000);

  it("reports them beside the platform's own problems (a retention out of range and no internal secret)", () => {
    const result = runNotifier({ ANALYST_EVENTS_RETENTION_HOURS: '0', ANALYST_INTERNAL_SECRET: '' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('ANALYST_INTERNAL_SECRET: required when ANALYST_MODE=distributed');
    expect(result.stderr).toContain(
      'ANALYST_EVENTS_RETENTION_HOURS must be a whole number of hours from 1 to 720, is "0"',
    );
  }, 60_000);
});
