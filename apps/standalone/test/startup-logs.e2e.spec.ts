import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@analyst/platform';

const ROOT = join(__dirname, '../../..');

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

/** An ApiKeyCreated with no data: the api-keys projector reads `data.keyId` and throws a TypeError. */
async function logWithABrokenEvent(dir: string): Promise<void> {
  const store = new SqliteEventStore({ filename: join(dir, 'events.db') });
  await store.append(
    'api-key-broken',
    [
      {
        id: '00000000-0000-4000-8000-000000000001',
        type: 'ApiKeyCreated',
        schemaVersion: 1,
        data: null as never,
        metadata: {
          correlationId: 'startup-logs',
          causationId: null,
          teamId: null,
          occurredAt: new Date(0).toISOString(),
        },
      },
    ],
    'no_stream',
  );
  await store.close();
}

interface Started {
  child: ChildProcess;
  lines: string[];
  /** Resolves with the first stdout line that `match` accepts. */
  waitForLine(match: (line: string) => boolean, what: string): Promise<string>;
}

function startStandalone(dataDir: string, port: number): Started {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(ROOT, 'apps/standalone/src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
        PORT: String(port),
        HOST: '127.0.0.1',
        // Debug: Nest's module and route lines are written at debug since issue 40 (start-up chatter).
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'json',
        ANALYST_DEMO: '0',
        ANALYST_DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  let buffer = '';
  const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  const take = (chunk: Buffer) => {
    buffer += chunk.toString();
    const complete = buffer.split('\n');
    buffer = complete.pop()!;
    for (const line of complete) {
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.match(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  return {
    child,
    lines,
    waitForLine: (match, what) =>
      new Promise((resolve, reject) => {
        const found = lines.find(match);
        if (found !== undefined) return resolve(found);
        const timer = setTimeout(
          () => reject(new Error(`no ${what} within 90 s:\n${lines.join('\n')}`)),
          90_000,
        );
        waiters.push({
          match,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
        child.once('exit', (code) =>
          reject(new Error(`exited with ${code} before ${what}:\n${lines.join('\n')}`)),
        );
      }),
  };
}

function json(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}

describe('a service whose projection throws at start', () => {
  let dataDir: string;
  let started: Started | null = null;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'analyst-startup-logs-'));
  });

  afterEach(async () => {
    if (started && started.child.exitCode === null) {
      const exited = new Promise((r) => started!.child.once('exit', r));
      // The start would retry for minutes: nothing graceful is left to wait for.
      started.child.kill('SIGKILL');
      await exited;
    }
    started = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs the cause while starting, in pino lines with numeric levels, and answers the probes', async () => {
    await logWithABrokenEvent(dataDir);
    const port = await freePort();
    started = startStandalone(dataDir, port);

    const failure = json(
      await started.waitForLine((line) => {
        const record = json(line);
        return record?.level === 50 && String(record.msg).includes('ApiKeyCreated api-key-broken@0');
      }, 'error line for the failing projector'),
    )!;
    // The cause, and where it was thrown, not only that something failed.
    expect(failure.msg).toContain("TypeError: Cannot read properties of null (reading 'keyId')");
    expect(failure.stack).toContain('identity.projectors');
    expect(failure).toMatchObject({ service: 'standalone', context: 'Projections' });
    // Still starting: the service never said it listens.
    expect(started.lines.some((line) => line.includes('listening on'))).toBe(false);

    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(503);
    const readiness = (await ready.json()) as { error: Record<string, { message: string }> };
    expect(readiness.error.startup.message).toContain('starting');
    expect(readiness.error.components.message).toContain('projection:standalone');
    expect(readiness.error.components.message).toContain("Cannot read properties of null (reading 'keyId')");

    const live = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(live.status).toBe(200);

    // Nest's own start-up lines came out as they happened, in the same shape as every other line.
    expect(started.lines.some((line) => json(line)?.context === 'InstanceLoader')).toBe(true);
    const records = started.lines.filter((line) => line.startsWith('{')).map(json);
    expect(records.length).toBeGreaterThan(5);
    for (const record of records) {
      expect(record).not.toBeNull();
      expect(typeof record!.level).toBe('number');
      expect(typeof record!.time).toBe('number');
    }
  }, 120_000);

  it('logs a store that cannot be opened while the app is created at fatal level, and exits 1 (no abort)', async () => {
    // The event log's file is a directory: opening it throws in the provider's factory, inside NestFactory.create.
    mkdirSync(join(dataDir, 'events.db'));
    started = startStandalone(dataDir, await freePort());
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      started!.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    expect(exit).toEqual({ code: 1, signal: null });
    const records = started.lines.filter((line) => line.trim() !== '').map(json);
    for (const record of records) expect(typeof record?.level).toBe('number');
    const fatal = records.find((record) => record?.level === 60);
    expect(fatal).toMatchObject({ service: 'standalone', msg: 'standalone failed to start' });
    // The cause, with where it was thrown.
    expect(fatal!.err).toMatchObject({ type: 'SqliteError', message: 'unable to open database file' });
    expect((fatal!.err as { stack: string }).stack).toContain('SqliteEventStore');
    // Nest's own error line came through the same logger (no coloured console line, no abort).
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 50,
        context: 'ExceptionHandler',
        msg: 'unable to open database file',
      }),
    );
  }, 120_000);
});
