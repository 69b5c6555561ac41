import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const DEMO_KEY = 'ak_terminaldemo0000000.terminal-output-test-secret-0123456789';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Run {
  child: ChildProcess;
  /** Every line written to stdout and stderr so far. */
  lines: string[];
}

/** The standalone app as `npm start` runs it (demo team on), stdout and stderr captured as lines. */
function startStandalone(dataDir: string, port: number, env: Record<string, string>): Run {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
    PORT: String(port),
    HOST: '127.0.0.1',
    ANALYST_DEMO: '1',
    ANALYST_DEMO_KEY: DEMO_KEY,
    ANALYST_DATA_DIR: dataDir,
    ...env,
  };
  // The default level and the default format guess, unless the test names them.
  if (!env.LOG_LEVEL) delete childEnv.LOG_LEVEL;
  if (!env.LOG_FORMAT) delete childEnv.LOG_FORMAT;
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(ROOT, 'apps/standalone/src/main.ts')],
    {
      cwd: ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const take = (buffer: { rest: string }) => (chunk: Buffer) => {
    const complete = (buffer.rest + chunk.toString()).split('\n');
    buffer.rest = complete.pop()!;
    lines.push(...complete);
  };
  child.stdout!.on('data', take({ rest: '' }));
  child.stderr!.on('data', take({ rest: '' }));
  return { child, lines };
}

/** Polls until the app answers /readyz 200 and has printed the banner's last line (the key's curl line). */
async function startedUp(run: Run, port: number): Promise<void> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (run.child.exitCode !== null)
      throw new Error(`exited with ${run.child.exitCode}:\n${run.lines.join('\n')}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready && run.lines.some((line) => line.startsWith('Try: curl'))) return;
    if (Date.now() > deadline) throw new Error(`not started within 150 s:\n${run.lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stop(run: Run | null): Promise<void> {
  if (!run || run.child.exitCode !== null) return;
  const exited = new Promise((r) => run.child.once('exit', r));
  run.child.kill('SIGTERM');
  await exited;
}

function json(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}

describe('what npm start prints (issue 40 item 2)', () => {
  let dataDir: string;
  let run: Run | null = null;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'analyst-terminal-'));
  });

  afterEach(async () => {
    await stop(run);
    run = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('on a terminal (LOG_FORMAT=pretty): one line per record, no route lines, and the key in the last lines', async () => {
    const port = await freePort();
    run = startStandalone(dataDir, port, { LOG_FORMAT: 'pretty' });
    await startedUp(run, port);

    const shown = run.lines.filter((line) => line.trim() !== '');
    // Start-up fits a screen: the demo key is not scrolled away by framework chatter.
    expect(shown.length).toBeLessThanOrEqual(30);
    expect(run.lines.some((line) => line.includes('Mapped {'))).toBe(false);
    expect(run.lines.some((line) => line.includes('dependencies initialized'))).toBe(false);
    const last = shown.slice(-4).join('\n');
    expect(last).toContain(`Demo API key (every scope; shown once): ${DEMO_KEY}`);
    expect(shown[shown.length - 1]).toMatch(/^Admin token for \/admin\/v1 \(generated for this run\): \S+$/);

    // Every log line is one readable line: time, level, [service/context], message; no JSON.
    const records = shown.filter((line) => line.startsWith('['));
    expect(records.length).toBeGreaterThan(0);
    for (const line of records)
      expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN|ERROR): \[standalone(\/\w+)?\] \S/);
    expect(shown.some((line) => line.startsWith('{'))).toBe(false);
    expect(records).toContainEqual(
      expect.stringMatching(/INFO: \[standalone\/Demo\] demo team tm_\w+ created/),
    );
  }, 180_000);

  it('piped (not a terminal, LOG_FORMAT unset): JSON lines with a numeric level, framework chatter below info', async () => {
    const port = await freePort();
    run = startStandalone(dataDir, port, {});
    await startedUp(run, port);

    const records = run.lines.filter((line) => line.startsWith('{')).map(json);
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(record).not.toBeNull();
      expect(typeof record!.level).toBe('number');
      expect(record!.service).toBe('standalone');
    }
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 30,
        context: 'Demo',
        msg: expect.stringMatching(/^demo team tm_\w+ created/),
      }),
    );
    expect(
      records.some((record) => ['InstanceLoader', 'RouterExplorer'].includes(String(record!.context))),
    ).toBe(false);
    // The banner is plain text beside the JSON lines, as before.
    expect(run.lines).toContain(`Demo API key (every scope; shown once): ${DEMO_KEY}`);
  }, 180_000);
});
