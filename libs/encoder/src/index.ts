export type { SentenceEncoder } from './sentence-encoder';
export {
  loadLocalEncoder,
  localModelProblem,
  type LocalEncoderOptions,
  DEFAULT_THREADS,
  DEFAULT_BATCH_SIZE,
} from './local-encoder';
export { sharedEncoder, encoderFromEnv, type EncoderSource } from './shared-encoder';
export { readEncoderConfig, type EncoderConfig } from './encoder-config';
export {
  DEFAULT_MODEL,
  modelNames,
  modelSpec,
  type ModelSpec,
  type ModelFile,
  type Pooling,
} from './model-catalogue';
export { modelsDir } from './model-files';
export { localEncoderFromEnv } from './local-encoder-from-env';
export { dot } from './dot';
