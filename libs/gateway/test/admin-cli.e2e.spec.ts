import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { TEST_ADMIN_TOKEN } from '@analyst/testing';
import { AdminApiError } from '../src/cli/admin-client';
import { registerAdminCommands } from '../src/cli/admin-commands';
import { cliErrorBody, reportCliError } from '../src/cli/cli-errors';
import { gatewayTest, type GatewayTest } from './gateway-fixture';

describe('analyst CLI over the admin API', () => {
  let g: GatewayTest;
  let url: string;
  let printed: string[];
  beforeAll(async () => {
    g = await gatewayTest();
    await g.t.app.listen({ port: 0, host: '127.0.0.1' });
    url = await g.t.app.getUrl();
  });
  afterAll(() => g.t.close());
  beforeEach(() => {
    printed = [];
    jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  });
  afterEach(() => jest.restoreAllMocks());

  async function run(...args: string[]): Promise<string> {
    const program = new Command('analyst').option('--json').exitOverride();
    registerAdminCommands(program);
    await program.parseAsync(['node', 'analyst', ...args, '--url', url, '--token', TEST_ADMIN_TOKEN]);
    return printed.splice(0).join('\n');
  }

  it('creates a team and a key, rotates, revokes and shows usage, readable and as JSON', async () => {
    const created = JSON.parse(
      await run('--json', 'teams', 'create', '--name', 'CLI Co', '--plan', 'growth'),
    );
    const teamId = created.data.id;
    expect(created.data).toMatchObject({ name: 'CLI Co', plan: 'growth' });
    const keyText = await run(
      'keys',
      'create',
      teamId,
      '--name',
      'cli key',
      '--scopes',
      'team:read,posts:read',
    );
    expect(keyText).toContain('key created; store the key now');
    expect(keyText).toMatch(/scopes\s+posts:read,team:read/);
    const listed = await run('keys', 'list', teamId);
    expect(listed.split('\n')[0]).toMatch(/^id\s+name\s+status\s+scopes/);
    expect(listed).toContain('cli key');
    const keyId = /id\s+(ak_\S+)/.exec(keyText)![1];
    expect(await run('keys', 'rotate', keyId)).toContain('key rotated');
    expect(await run('teams', 'plan', teamId, 'scale')).toMatch(/plan\s+scale/);
    expect(await run('teams', 'limits', teamId, '--set', 'analysis_create.perMinute=30')).toContain(
      'analysis_create',
    );
    expect(await run('teams', 'allotment', teamId, '900')).toMatch(/monthlyMapAllotment\s+900/);
    expect(
      await run('teams', 'settings', teamId, '--score-version', '2', '--engagement-weight', '1.5'),
    ).toContain('"scoreVersion":2');
    expect(await run('keys', 'revoke', keyId)).toMatch(/status\s+revoked/);
    expect(await run('teams', 'usage', teamId)).toContain('usage ');
    expect(await run('teams', 'show', teamId)).toContain('revoked');
  });

  it('reads the server address from ANALYST_URL when --url is not given; --url wins over it', async () => {
    const program = () => {
      const p = new Command('analyst').option('--json').exitOverride();
      registerAdminCommands(p);
      return p;
    };
    process.env.ANALYST_URL = url;
    try {
      await program().parseAsync([
        'node',
        'analyst',
        '--json',
        'teams',
        'create',
        '--name',
        'Env Co',
        '--plan',
        'growth',
        '--token',
        TEST_ADMIN_TOKEN,
      ]);
      expect(JSON.parse(printed.splice(0).join('\n')).data).toMatchObject({ name: 'Env Co' });
      process.env.ANALYST_URL = 'http://127.0.0.1:9'; // nothing listens there: only --url can make this work
      await program().parseAsync([
        'node',
        'analyst',
        '--json',
        'teams',
        'create',
        '--name',
        'Flag Co',
        '--plan',
        'growth',
        '--url',
        url,
        '--token',
        TEST_ADMIN_TOKEN,
      ]);
      expect(JSON.parse(printed.splice(0).join('\n')).data).toMatchObject({ name: 'Flag Co' });
    } finally {
      delete process.env.ANALYST_URL;
    }
  });

  it('reports the server error message', async () => {
    await expect(run('teams', 'plan', 'tm_missing', 'scale')).rejects.toThrow(
      'PUT /admin/v1/teams/tm_missing/plan failed with 404: team not found',
    );
  });

  it('carries the status and the envelope code on the thrown error; --json reports them as one JSON object', async () => {
    const error = await run('teams', 'show', 'tm_nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminApiError);
    expect(error).toMatchObject({
      status: 404,
      code: 'team_not_found',
      method: 'GET',
      path: '/admin/v1/teams/tm_nope',
    });
    const written: string[] = [];
    expect(reportCliError(error, true, (text) => written.push(text))).toBe(1);
    expect(written.map((t) => JSON.parse(t))).toEqual([
      { error: { status: 404, code: 'team_not_found', message: (error as Error).message } },
    ]);
    expect(reportCliError(error, false, (text) => written.push(text))).toBe(1);
    expect(written[1]).toBe((error as Error).message);
    expect(cliErrorBody(new Error('plain'))).toEqual({
      error: { status: null, code: 'cli_error', message: 'plain' },
    });
    await expect(
      (async () => {
        const program = new Command('analyst').option('--json').exitOverride();
        registerAdminCommands(program);
        await program.parseAsync(['node', 'analyst', 'teams', 'list', '--url', url, '--token', '']);
      })(),
    ).rejects.toMatchObject({ status: null, code: 'no_admin_token' });
  });

  it('with --json, the real CLI prints `teams show tm_nope` failing as {"error":{...}} on stderr and exits 1', async () => {
    const root = join(__dirname, '../../..');
    const env = { ...process.env, ANALYST_ADMIN_TOKEN: TEST_ADMIN_TOKEN };
    const cli = (...args: string[]) =>
      promisify(execFile)(
        process.execPath,
        ['-r', '@swc-node/register', join(root, 'tools/analyst-cli.ts'), ...args],
        { cwd: root, env },
      ).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({
          code: e.code,
          stdout: e.stdout,
          stderr: e.stderr,
        }),
      );
    const failed = await cli('--json', 'teams', 'show', 'tm_nope', '--url', url);
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(failed.stderr)).toEqual({
      error: {
        status: 404,
        code: 'team_not_found',
        message: expect.stringMatching(/^GET \/admin\/v1\/teams\/tm_nope failed with 404: /),
      },
    });
    const help = await cli('--json', 'teams', '--help');
    expect(help.code).toBe(0);
    expect(help.stderr).toBe('');
    // Each CLI process compiles its sources on start: slower than jest's 5 s default on a busy machine.
  }, 60_000);
});
