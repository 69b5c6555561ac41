import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ModelFile, ModelSpec } from './model-catalogue';

/**
 * The folder of the project: the nearest folder above this file whose package.json is the root
 * one (`"name": "analyst"`). The same from the sources (libs/encoder/src) and from a build
 * (dist/libs/encoder/src, or /app/dist/… in an image whose /app holds that package.json).
 */
function projectRoot(): string | null {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'analyst'
    )
      return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** Where the fetched models live: ANALYST_MODELS_DIR, else <project>/models (what npm ci fills). */
export function modelsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ANALYST_MODELS_DIR) return resolve(env.ANALYST_MODELS_DIR);
  return join(projectRoot() ?? process.cwd(), 'models');
}

export interface ModelPaths {
  readonly model: string;
  readonly tokenizer: string;
}

export function modelPaths(dir: string, spec: ModelSpec): ModelPaths {
  return { model: join(dir, spec.files.model.name), tokenizer: join(dir, spec.files.tokenizer.name) };
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function fileProblem(path: string, expected: ModelFile): Promise<string | null> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return `${path} is missing`;
  if (info.size !== expected.bytes) return `${path} has ${info.size} bytes, expected ${expected.bytes}`;
  const sha256 = await sha256Of(path);
  return sha256 === expected.sha256 ? null : `${path} has SHA-256 ${sha256}, expected ${expected.sha256}`;
}

/**
 * Why the model's files in `dir` cannot be loaded (missing, or not the catalogue's bytes), or null.
 * Hashed off the event loop's critical path (streamed), about 0.1 s for the default model.
 */
export async function modelFilesProblem(dir: string, spec: ModelSpec): Promise<string | null> {
  const paths = modelPaths(dir, spec);
  const problems = (
    await Promise.all([
      fileProblem(paths.model, spec.files.model),
      fileProblem(paths.tokenizer, spec.files.tokenizer),
    ])
  ).filter((p): p is string => p !== null);
  if (problems.length === 0) return null;
  return `the sentence encoder's model ${spec.name} cannot be loaded: ${problems.join('; ')}. Run npm run model:fetch (npm ci runs it; it needs Maven).`;
}
