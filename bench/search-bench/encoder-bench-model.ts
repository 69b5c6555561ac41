import { EncoderSearchModel, quantizeAll } from '@analyst/comment-index';
import { loadLocalEncoder, type SentenceEncoder } from '@analyst/encoder';
import type { BenchModel } from './bench-model';

/**
 * The encoder search (`EncoderSearchModel`) over the local model, loaded at its run, not at import.
 * Comments come with their int8 vectors as the read model stores them, each embedded once per run.
 * Threads: ANALYST_ENCODER_THREADS (default 2, this machine's cores).
 */
export function encoderBenchModel(name: string): BenchModel {
  let loaded: Promise<SentenceEncoder> | null = null;
  const encoder = () =>
    (loaded ??= loadLocalEncoder({ threads: Number(process.env.ANALYST_ENCODER_THREADS ?? 2) }).then((e) => {
      if (!e) throw new Error(`${name}: the sentence encoder is not installed (npm run model:fetch)`);
      return e;
    }));
  return {
    name,
    create: () => new EncoderSearchModel(encoder),
    storedVectors: async (texts) => {
      const e = await encoder();
      const all = quantizeAll(await e.embed(texts), e.dims);
      return texts.map((_, i) => all.subarray(i * e.dims, (i + 1) * e.dims));
    },
    close: async () => {
      if (loaded) await (await loaded).close();
      loaded = null;
    },
  };
}
