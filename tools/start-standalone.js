#!/usr/bin/env node
// `npm start`: build when any TypeScript source is newer than the last build, then run standalone.
// With --build-only it stops after the build (used by other npm scripts).
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = join(root, 'dist/apps/standalone/src/main.js');
const stamp = join(root, 'dist/.build-stamp');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const built = existsSync(entry) && existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const sources = Math.max(...['apps', 'libs', 'tools'].map((d) => newestSource(join(root, d))));
if (sources > built) {
  console.log('Building (sources changed since the last build)...');
  execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });
  writeFileSync(stamp, new Date().toISOString());
}
// Newcomers get the demo team by default; ANALYST_DEMO=0 opts out (the app itself defaults to off).
if (!process.env.ANALYST_DEMO) process.env.ANALYST_DEMO = '1';
if (!process.argv.includes('--build-only')) require(entry);
