/* global describe, it, expect, jest, Buffer */
// npm ci's postinstall: the model files come from Maven, are checked by SHA-256, and a missing
// Maven is a warning, not a failed install. Maven is replaced here by a script that plays its part.
const { createHash } = require('node:crypto');
const {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { ensureModel, main } = require('../fetch-model.js');

const MODEL = 'weights of a tiny model';
const TOKENIZER = '{"model":{"type":"WordPiece"}}';
const file = (name, text) => ({
  name,
  bytes: Buffer.byteLength(text),
  sha256: createHash('sha256').update(text).digest('hex'),
});
const SPEC = {
  artifact: 'org.example:tiny-model:1.0:jar',
  files: { model: file('tiny.onnx', MODEL), tokenizer: file('tiny-tokenizer.json', TOKENIZER) },
};

/** A stand-in for mvn: logs its arguments, then writes the two files (or `modelText`) into -DoutputDirectory. */
function fakeMaven(dir, modelText = MODEL) {
  const log = join(dir, 'mvn.log');
  const script = join(dir, 'mvn');
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `echo "$@" >> '${log}'`,
      'for a in "$@"; do case "$a" in -DoutputDirectory=*) out="${a#-DoutputDirectory=}";; esac; done',
      'mkdir -p "$out"',
      `printf '%s' '${modelText}' > "$out/tiny.onnx"`,
      `printf '%s' '${TOKENIZER}' > "$out/tiny-tokenizer.json"`,
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  return { mvn: script, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}

describe('tools/fetch-model.js', () => {
  it('fetches with Maven unpacking only the two files of the artifact, then checks their hashes', () => {
    const root = mkdtempSync(join(tmpdir(), 'fetch-model-'));
    const maven = fakeMaven(root);
    const dir = join(root, 'models', 'tiny');
    expect(ensureModel(SPEC, dir, { mvn: maven.mvn })).toEqual({ status: 'fetched' });
    expect(readFileSync(join(dir, 'tiny.onnx'), 'utf8')).toBe(MODEL);
    expect(maven.calls()).toHaveLength(1);
    expect(maven.calls()[0]).toContain(
      'maven-dependency-plugin:3.8.1:unpack -Dartifact=org.example:tiny-model:1.0:jar',
    );
    expect(maven.calls()[0]).toContain('-Dmdep.unpack.includes=tiny.onnx,tiny-tokenizer.json');
    // The staging folder is gone; only the model's folder is left.
    expect(readdirSync(join(root, 'models'))).toEqual(['tiny']);
  });

  it('keeps files that are already right without calling Maven (a second npm ci)', () => {
    const root = mkdtempSync(join(tmpdir(), 'fetch-model-'));
    const dir = join(root, 'models', 'tiny');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tiny.onnx'), MODEL);
    writeFileSync(join(dir, 'tiny-tokenizer.json'), TOKENIZER);
    const maven = fakeMaven(root);
    expect(ensureModel(SPEC, dir, { mvn: maven.mvn })).toEqual({ status: 'present' });
    expect(maven.calls()).toEqual([]);
  });

  it('replaces a file whose hash is wrong, and refuses an artifact whose files are not the committed bytes', () => {
    const root = mkdtempSync(join(tmpdir(), 'fetch-model-'));
    const dir = join(root, 'models', 'tiny');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tiny.onnx'), 'weights of a tinY model');
    writeFileSync(join(dir, 'tiny-tokenizer.json'), TOKENIZER);
    expect(ensureModel(SPEC, dir, { mvn: fakeMaven(root).mvn })).toEqual({ status: 'fetched' });
    expect(readFileSync(join(dir, 'tiny.onnx'), 'utf8')).toBe(MODEL);

    const other = join(root, 'models', 'other');
    const tampered = ensureModel(SPEC, other, {
      mvn: fakeMaven(mkdtempSync(join(tmpdir(), 'mvn-')), 'weights of a tinY model').mvn,
    });
    expect(tampered.status).toBe('unavailable');
    expect(tampered.reason).toContain(
      `tiny.onnx has SHA-256 ${createHash('sha256').update('weights of a tinY model').digest('hex')}, expected ${SPEC.files.model.sha256}`,
    );
    expect(existsSync(other)).toBe(false);
  });

  it('without Maven: the reason names it; npm ci goes on (exit 0), npm run model:fetch (--strict) exits 1', () => {
    const root = mkdtempSync(join(tmpdir(), 'fetch-model-'));
    const missing = ensureModel(SPEC, join(root, 'tiny'), { mvn: join(root, 'no-mvn') });
    expect(missing).toEqual({
      status: 'unavailable',
      reason: `Maven (${join(root, 'no-mvn')}) is not installed: install it (e.g. apt-get install maven) and run npm run model:fetch`,
    });

    const env = { ANALYST_MODELS_DIR: join(root, 'models'), ANALYST_MVN: join(root, 'no-mvn') };
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(main([], env)).toBe(0);
      expect(main(['--strict'], env)).toBe(1);
      expect(warn.mock.calls[0][0]).toContain(
        "WARNING fetch-model: the sentence encoder's model all-minilm-l6-v2-q is not installed",
      );
    } finally {
      warn.mockRestore();
    }
  });
});
