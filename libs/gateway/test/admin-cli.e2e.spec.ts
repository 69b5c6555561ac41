import { Command } from 'commander';
import { TEST_ADMIN_TOKEN } from '@analyst/testing';
import { registerAdminCommands } from '../src/cli/admin-commands';
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
    const created = JSON.parse(await run('--json', 'teams', 'create', '--name', 'CLI Co', '--plan', 'growth'));
    const teamId = created.data.id;
    expect(created.data).toMatchObject({ name: 'CLI Co', plan: 'growth' });
    const keyText = await run('keys', 'create', teamId, '--name', 'cli key', '--scopes', 'team:read,posts:read');
    expect(keyText).toContain('key created; store the key now');
    expect(keyText).toMatch(/scopes\s+posts:read,team:read/);
    const listed = await run('keys', 'list', teamId);
    expect(listed.split('\n')[0]).toMatch(/^id\s+name\s+status\s+scopes/);
    expect(listed).toContain('cli key');
    const keyId = /id\s+(ak_\S+)/.exec(keyText)![1];
    expect(await run('keys', 'rotate', keyId)).toContain('key rotated');
    expect(await run('teams', 'plan', teamId, 'scale')).toMatch(/plan\s+scale/);
    expect(await run('teams', 'limits', teamId, '--set', 'analysis_create.perMinute=30')).toContain('analysis_create');
    expect(await run('teams', 'allotment', teamId, '900')).toMatch(/monthlyMapAllotment\s+900/);
    expect(await run('teams', 'settings', teamId, '--score-version', '2', '--engagement-weight', '1.5')).toContain('"scoreVersion":2');
    expect(await run('keys', 'revoke', keyId)).toMatch(/status\s+revoked/);
    expect(await run('teams', 'usage', teamId)).toContain('usage ');
    expect(await run('teams', 'show', teamId)).toContain('revoked');
  });

  it('reports the server error message', async () => {
    await expect(run('teams', 'plan', 'tm_missing', 'scale')).rejects.toThrow('PUT /admin/v1/teams/tm_missing/plan failed with 404: team not found');
  });
});
