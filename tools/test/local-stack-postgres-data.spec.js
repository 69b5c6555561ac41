/* global describe, it, expect, beforeEach, afterEach */
// deploy/local/postgres-data.sh: a stack directory under a folder the PostgreSQL user cannot enter
// (issue 40 item 5). As root, start.sh runs PostgreSQL as `postgres`; initdb into such a directory
// failed with "could not access directory ...: Permission denied". The scenario exists only as root
// with PostgreSQL installed, so the suite runs there (CI images and the dev container are root).
const { execFileSync, spawnSync } = require('node:child_process');
const {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} = require('node:fs');
const { join } = require('node:path');

const LOCAL_DIR = join(__dirname, '../../deploy/local');

function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(a) - Number(b));
  const bin = versions.length ? join(root, versions[versions.length - 1], 'bin') : null;
  return bin && existsSync(join(bin, 'initdb')) ? bin : null;
}

const PG_BIN = postgresBin();
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasUser = asRoot && spawnSync('id', ['postgres']).status === 0;
const runs = Boolean(PG_BIN && hasUser);

/** Runs `script` in bash with common.sh and postgres-data.sh sourced for the stack dir `stackDir`. */
function inStack(stackDir, script) {
  return spawnSync(
    'bash',
    [
      '-c',
      `set -euo pipefail; source "${LOCAL_DIR}/common.sh"; source "${LOCAL_DIR}/postgres-data.sh"; ${script}`,
    ],
    { env: { ...process.env, ANALYST_STACK_DIR: stackDir }, encoding: 'utf8' },
  );
}

(runs ? describe : describe.skip)(
  'local stack: PostgreSQL data where the PostgreSQL user can reach it',
  () => {
    let top;
    let privateParent;
    let fallback;

    beforeEach(() => {
      top = mkdtempSync('/tmp/analyst-pgdata-');
      chmodSync(top, 0o755);
      privateParent = join(top, 'private');
      mkdirSync(privateParent, { mode: 0o700 });
      chmodSync(privateParent, 0o700); // the umask may have taken bits away; only root may enter it
      fallback = join(top, 'var-tmp');
      mkdirSync(fallback, { mode: 0o755 });
    });

    afterEach(() => rmSync(top, { recursive: true, force: true }));

    it('under a 0700 parent: places the data in a directory of its own, initdb works there, the place is kept and cleaned', () => {
      const stack = join(privateParent, 'checkout/deploy/local/.stack');
      const placed = inStack(stack, `postgres_data_dir "$STACK_DIR/postgres/data" postgres "${fallback}"`);
      expect(placed.status).toBe(0);
      expect(placed.stdout).toMatch(new RegExp(`^${fallback}/analyst-local-stack-postgres-\\d+$`));
      // The log line says which directory was closed and where the data went.
      expect(placed.stderr).toContain(`postgres: ${privateParent} is closed to the postgres user`);
      expect(readFileSync(join(stack, 'postgres/data-dir'), 'utf8').trim()).toBe(placed.stdout);

      // What start.sh then runs: initdb as the postgres user, into the placed directory.
      execFileSync(
        'setpriv',
        [
          '--reuid=postgres',
          `--regid=${execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()}`,
          '--init-groups',
        ].concat([
          join(PG_BIN, 'initdb'),
          '-D',
          placed.stdout,
          '-U',
          'postgres',
          '--auth=trust',
          '-E',
          'UTF8',
          '--locale=C.UTF-8',
        ]),
        { stdio: 'pipe' },
      );
      expect(existsSync(join(placed.stdout, 'PG_VERSION'))).toBe(true);

      // The next start finds it again through the record; stop.sh --clean's step removes it.
      expect(
        inStack(stack, `postgres_data_dir "$STACK_DIR/postgres/data" postgres "${fallback}"`).stdout,
      ).toBe(placed.stdout);
      const cleaned = inStack(stack, 'remove_placed_postgres_data');
      expect(cleaned.status).toBe(0);
      expect(existsSync(placed.stdout)).toBe(false);
    });

    it('keeps the data in the stack when the PostgreSQL user can reach it', () => {
      const stack = join(top, 'open/.stack');
      const chosen = inStack(stack, `postgres_data_dir "$STACK_DIR/postgres/data" postgres "${fallback}"`);
      expect(chosen.status).toBe(0);
      expect(chosen.stdout).toBe(join(stack, 'postgres/data'));
      expect(existsSync(join(stack, 'postgres/data-dir'))).toBe(false);
    });

    it('stops with the directory and what to change when no place is reachable', () => {
      const stack = join(privateParent, 'checkout/.stack');
      const closedFallback = join(privateParent, 'tmp');
      mkdirSync(closedFallback);
      const refused = inStack(
        stack,
        `postgres_data_dir "$STACK_DIR/postgres/data" postgres "${closedFallback}"`,
      );
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`runs as user postgres, which cannot enter ${privateParent}`);
      expect(refused.stderr).toContain(`chmod o+x ${privateParent}`);
      expect(refused.stderr).toContain('ANALYST_STACK_DIR');
    });
  },
);
