import { Bm25SearchModel } from '@analyst/comment-index';
import type { BenchModel } from './bench-model';
import { encoderBenchModel } from './encoder-bench-model';

/** The models the bench runs, in order; a new model is one line here. */
export const BENCH_MODELS: readonly BenchModel[] = [
  encoderBenchModel('encoder-hybrid'),
  { name: 'bm25-alone', create: () => new Bm25SearchModel() },
];
