import { join } from 'node:path';
import { DEFAULT_MODEL, modelSpec } from './model-catalogue';
import { modelFilesProblem, modelPaths, modelsDir } from './model-files';
import { SentenceEncoder } from './sentence-encoder';
import { WorkerPoolEncoder } from './worker-pool-encoder';

export interface LocalEncoderOptions {
  /** Worker threads, each with its own copy of the model (default 1; see README for the figures). */
  readonly threads?: number;
  /** The folder holding the model's two files (default: <ANALYST_MODELS_DIR or <project>/models>/<model>). */
  readonly modelDir?: string;
  /** Texts handed to a thread at a time; concurrent calls take turns at this grain (default 32). */
  readonly batchSize?: number;
  /** A model of libs/encoder/models.json (default: the catalogue's default, all-minilm-l6-v2-q). */
  readonly model?: string;
  /** Told why the encoder is unavailable when its files are absent (default: a process warning on stderr). */
  readonly onUnavailable?: (reason: string) => void;
}

export const DEFAULT_THREADS = 1;
export const DEFAULT_BATCH_SIZE = 32;

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer (got ${value})`);
  return value;
}

/**
 * Why the local encoder cannot load (its files missing or not the catalogue's), or null: for a
 * service's start, which reports it before any search needs the encoder.
 */
export function localModelProblem(
  options: Pick<LocalEncoderOptions, 'modelDir' | 'model'> = {},
): Promise<string | null> {
  const spec = modelSpec(options.model ?? DEFAULT_MODEL);
  return modelFilesProblem(options.modelDir ?? join(modelsDir(), spec.name), spec);
}

/**
 * The local encoder, loaded from the fetched model folder; null (with the reason, given to
 * onUnavailable) when the files are absent or are not the catalogue's. A model that is there but
 * fails to load rejects.
 */
export async function loadLocalEncoder(options: LocalEncoderOptions = {}): Promise<SentenceEncoder | null> {
  const spec = modelSpec(options.model ?? DEFAULT_MODEL);
  const threads = positiveInteger('threads', options.threads ?? DEFAULT_THREADS);
  const batchSize = positiveInteger('batchSize', options.batchSize ?? DEFAULT_BATCH_SIZE);
  const dir = options.modelDir ?? join(modelsDir(), spec.name);
  const problem = await modelFilesProblem(dir, spec);
  if (problem) {
    (
      options.onUnavailable ?? ((reason: string) => process.emitWarning(reason, 'SentenceEncoderUnavailable'))
    )(problem);
    return null;
  }
  return WorkerPoolEncoder.start({ paths: modelPaths(dir, spec), spec }, { threads, batchSize });
}
