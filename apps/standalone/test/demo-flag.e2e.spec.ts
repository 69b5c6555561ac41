import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

/** Starts the real entry point on a fresh data dir and returns what it printed once it listens. */
async function startupBanner(env: Record<string, string>): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'analyst-demo-flag-'));
  const base = { ...process.env };
  delete base.ANALYST_DEMO;
  delete base.ANALYST_DEMO_KEY;
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(ROOT, 'apps/standalone/src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...base,
        SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        ANALYST_DATA_DIR: dataDir,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner within 90 s:\n${out}`)), 90_000);
      const check = () => {
        // The banner is written in one piece and ends with a blank line.
        if (/listening on[\s\S]*\n\n$/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', check);
      child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
    });
    return out;
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('standalone entry point and ANALYST_DEMO', () => {
  it('creates no demo team unless asked', async () => {
    const banner = await startupBanner({});
    expect(banner).toContain('No demo team (ANALYST_DEMO is not 1)');
    expect(banner).not.toContain('Demo API key');
  }, 120_000);

  it('creates the demo team and prints its key with ANALYST_DEMO=1 (what npm start sets)', async () => {
    const banner = await startupBanner({
      ANALYST_DEMO: '1',
      ANALYST_DEMO_KEY: 'ak_flagtest1.flag-test-secret-0123456789',
    });
    expect(banner).toContain(
      'Demo API key (every scope; shown once): ak_flagtest1.flag-test-secret-0123456789',
    );
  }, 120_000);
});
