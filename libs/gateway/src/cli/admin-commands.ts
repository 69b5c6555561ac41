import { Option, type Command } from 'commander';
import { adminCall, DEFAULT_ADMIN_URL, type AdminConnection } from './admin-client';

type Row = Record<string, unknown>;

function table(rows: Row[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = [columns, ...rows.map((r) => columns.map((c) => format(r[c])))];
  const widths = columns.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function format(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function details(record: Row): string {
  const width = Math.max(...Object.keys(record).map((k) => k.length));
  return Object.entries(record)
    .map(([k, v]) => `${k.padEnd(width)}  ${format(v)}`)
    .join('\n');
}

interface ConnectionFlags {
  url: string;
  token?: string;
  json?: boolean;
}

/** Adds `--url` and `--token` to a leaf command. */
function connected(command: Command): Command {
  return command
    .addOption(
      new Option('--url <url>', 'base URL of the Analyst server')
        .env('ANALYST_URL')
        .default(DEFAULT_ADMIN_URL),
    )
    .option('--token <token>', 'admin token (default $ANALYST_ADMIN_TOKEN)');
}

function connectionOf(command: Command): ConnectionFlags & AdminConnection {
  const flags = command.optsWithGlobals<ConnectionFlags>();
  return { ...flags, token: flags.token ?? process.env.ANALYST_ADMIN_TOKEN };
}

/** Prints `--json` output as the server sent it, or `readable(body)` otherwise. */
function output(command: Command, body: unknown, readable: (body: { data: never }) => string): void {
  console.log(connectionOf(command).json ? JSON.stringify(body, null, 2) : readable(body as { data: never }));
}

function parseLimits(entries: string[]): Record<string, { perMinute?: number; perDay?: number }> {
  const limits: Record<string, { perMinute?: number; perDay?: number }> = {};
  for (const entry of entries) {
    const match = /^([a-z_]+)\.(perMinute|perDay)=(\d+)$/.exec(entry);
    if (!match) throw new Error(`--set ${entry}: expected <class>.perMinute=<n> or <class>.perDay=<n>`);
    limits[match[1]] = { ...limits[match[1]], [match[2]]: Number(match[3]) };
  }
  return limits;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** `analyst teams ...` and `analyst keys ...`: the admin API over HTTP. */
export function registerAdminCommands(program: Command): void {
  const teams = program.command('teams').description('teams, plans, limits and usage (admin API)');
  const keys = program.command('keys').description('API keys (admin API)');

  connected(teams.command('create'))
    .description('create a team')
    .requiredOption('--name <name>', 'team name')
    .requiredOption('--plan <plan>', 'starter, growth, scale or enterprise')
    .option('--parent <teamId>', 'Enterprise team to create a sub-team under')
    .action(async (flags: { name: string; plan: string; parent?: string }, command: Command) => {
      const body = await adminCall(connectionOf(command), 'POST', '/admin/v1/teams', {
        name: flags.name,
        plan: flags.plan,
        ...(flags.parent ? { parentTeamId: flags.parent } : {}),
      });
      output(command, body, (b) => `team created\n${details(b.data)}`);
    });

  connected(teams.command('list'))
    .description('list teams')
    .action(async (_flags: unknown, command: Command) => {
      const body = await adminCall(connectionOf(command), 'GET', '/admin/v1/teams');
      output(command, body, (b) =>
        table(b.data, ['id', 'name', 'plan', 'parentTeamId', 'monthlyMapAllotment', 'createdAt']),
      );
    });

  connected(teams.command('show <teamId>'))
    .description('show a team with its sub-teams and keys')
    .action(async (teamId: string, _flags: unknown, command: Command) => {
      const body = await adminCall<{ data: Row & { subTeams: Row[]; keys: Row[] } }>(
        connectionOf(command),
        'GET',
        `/admin/v1/teams/${encodeURIComponent(teamId)}`,
      );
      output(command, body, () => {
        const { subTeams, keys: teamKeys, ...team } = body.data;
        return `${details(team)}\n\nsub-teams\n${table(subTeams, ['id', 'name', 'plan'])}\n\nkeys\n${table(teamKeys, ['id', 'name', 'status', 'scopes', 'createdAt'])}`;
      });
    });

  connected(teams.command('plan <teamId> <plan>'))
    .description('move a team to another plan')
    .action(async (teamId: string, plan: string, _flags: unknown, command: Command) => {
      const body = await adminCall(
        connectionOf(command),
        'PUT',
        `/admin/v1/teams/${encodeURIComponent(teamId)}/plan`,
        { plan },
      );
      output(command, body, (b) => `plan changed\n${details(b.data)}`);
    });

  connected(teams.command('settings <teamId>'))
    .description('set the analysis settings (score version, engagement weight)')
    .requiredOption('--score-version <n>', '1, 2 or 3')
    .requiredOption('--engagement-weight <w>', 'number from 0 to 10')
    .action(
      async (teamId: string, flags: { scoreVersion: string; engagementWeight: string }, command: Command) => {
        const body = await adminCall(
          connectionOf(command),
          'PUT',
          `/admin/v1/teams/${encodeURIComponent(teamId)}/analysis-settings`,
          {
            scoreVersion: Number(flags.scoreVersion),
            engagementWeight: Number(flags.engagementWeight),
          },
        );
        output(command, body, (b) => `analysis settings changed\n${details(b.data)}`);
      },
    );

  connected(teams.command('limits <teamId>'))
    .description('raise rate limits (replaces earlier raises)')
    .option('--set <class.window=n>', 'e.g. analysis_create.perMinute=20 (repeatable)', collect, [])
    .option('--daily-bytes <n>', 'response bytes per key per day')
    .action(async (teamId: string, flags: { set: string[]; dailyBytes?: string }, command: Command) => {
      const body = await adminCall(
        connectionOf(command),
        'PUT',
        `/admin/v1/teams/${encodeURIComponent(teamId)}/limits`,
        {
          limits: parseLimits(flags.set),
          ...(flags.dailyBytes ? { dailyBytes: Number(flags.dailyBytes) } : {}),
        },
      );
      output(command, body, (b) => `limits set\n${details(b.data)}`);
    });

  connected(teams.command('allotment <teamId> <maps>'))
    .description("override the team's monthly MAP allotment")
    .action(async (teamId: string, maps: string, _flags: unknown, command: Command) => {
      const body = await adminCall(
        connectionOf(command),
        'PUT',
        `/admin/v1/teams/${encodeURIComponent(teamId)}/map-allotment`,
        { monthlyMapAllotment: Number(maps) },
      );
      output(command, body, (b) => `MAP allotment set\n${details(b.data)}`);
    });

  connected(teams.command('usage <teamId>'))
    .description('requests and response bytes per key per UTC day, last 30 days')
    .action(async (teamId: string, _flags: unknown, command: Command) => {
      type Usage = {
        data: {
          from: string;
          to: string;
          keys: {
            id: string;
            name: string;
            status: string;
            days: { day: string; requests: number; bytes: number }[];
          }[];
        };
      };
      const body = await adminCall<Usage>(
        connectionOf(command),
        'GET',
        `/admin/v1/teams/${encodeURIComponent(teamId)}/usage`,
      );
      output(command, body, () => {
        const rows = body.data.keys.flatMap((k) =>
          k.days
            .filter((d) => d.requests > 0 || d.bytes > 0)
            .map((d) => ({ key: k.id, name: k.name, status: k.status, ...d })),
        );
        return `usage ${body.data.from} to ${body.data.to} (days without traffic left out)\n${table(rows, ['day', 'key', 'name', 'status', 'requests', 'bytes'])}`;
      });
    });

  connected(keys.command('create <teamId>'))
    .description('create an API key; the secret is printed once')
    .requiredOption('--name <name>', 'key name')
    .option(
      '--scopes <list>',
      'comma-separated scopes (default: all but posts:write, accounts:write, webhooks:read and webhooks:write)',
    )
    .action(async (teamId: string, flags: { name: string; scopes?: string }, command: Command) => {
      const scopes = flags.scopes
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const body = await adminCall(
        connectionOf(command),
        'POST',
        `/admin/v1/teams/${encodeURIComponent(teamId)}/keys`,
        { name: flags.name, ...(scopes ? { scopes } : {}) },
      );
      output(
        command,
        body,
        (b) => `key created; store the key now, it is not shown again\n${details(b.data)}`,
      );
    });

  connected(keys.command('list <teamId>'))
    .description("list a team's keys (never their secrets)")
    .action(async (teamId: string, _flags: unknown, command: Command) => {
      const body = await adminCall(
        connectionOf(command),
        'GET',
        `/admin/v1/teams/${encodeURIComponent(teamId)}/keys`,
      );
      output(command, body, (b) =>
        table(b.data, ['id', 'name', 'status', 'scopes', 'createdAt', 'rotatedAt', 'revokedAt']),
      );
    });

  connected(keys.command('rotate <keyId>'))
    .description('new secret for the same key; the old secret stops working at once')
    .action(async (keyId: string, _flags: unknown, command: Command) => {
      const body = await adminCall(
        connectionOf(command),
        'POST',
        `/admin/v1/keys/${encodeURIComponent(keyId)}/rotate`,
      );
      output(
        command,
        body,
        (b) => `key rotated; store the new key now, it is not shown again\n${details(b.data)}`,
      );
    });

  connected(keys.command('revoke <keyId>'))
    .description('revoke a key at once')
    .action(async (keyId: string, _flags: unknown, command: Command) => {
      const body = await adminCall(
        connectionOf(command),
        'POST',
        `/admin/v1/keys/${encodeURIComponent(keyId)}/revoke`,
      );
      output(command, body, (b) => `key revoked\n${details(b.data)}`);
    });
}
