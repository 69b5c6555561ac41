import { readEncoderConfig } from './encoder-config';
import { LocalEncoderOptions, loadLocalEncoder } from './local-encoder';
import { SentenceEncoder } from './sentence-encoder';

/** The process's one loaded model, shared by every holder, and how many holders have it open. */
let shared: { readonly encoder: Promise<SentenceEncoder | null>; holders: number } | null = null;

/**
 * A hold on the process-wide encoder: it loads on the first call (concurrent first callers share
 * the one load) and later calls get the same model, whatever options they pass. Each caller gets
 * its own handle; the model's threads stop when the last handle is closed, and the next call loads
 * it again. Null when the model's files are absent (the reason goes to onUnavailable once); a
 * failed load is not kept, so the next call tries again.
 */
export async function sharedEncoder(options: LocalEncoderOptions = {}): Promise<SentenceEncoder | null> {
  if (!shared) {
    const entry = { encoder: loadLocalEncoder(options), holders: 0 };
    shared = entry;
    entry.encoder.catch(() => {
      if (shared === entry) shared = null;
    });
  }
  const entry = shared;
  const encoder = await entry.encoder;
  if (!encoder) return null;
  entry.holders++;
  let open = true;
  return {
    model: encoder.model,
    dims: encoder.dims,
    embed: (texts) =>
      open ? encoder.embed(texts) : Promise.reject(new Error('this hold on the sentence encoder is closed')),
    close: async () => {
      if (!open) return;
      open = false;
      if (--entry.holders > 0) return;
      if (shared === entry) shared = null;
      await encoder.close();
    },
  };
}

/** Where a service gets the encoder: on first use, null when it is off or unavailable. */
export type EncoderSource = () => Promise<SentenceEncoder | null>;

/**
 * The encoder as ANALYST_ENCODER and ANALYST_ENCODER_THREADS configure it, as a lazy source: the
 * variables are read now (a bad value throws, for the service's start), the model loads on the
 * source's first call, and every call of one source returns the same hold on the shared model.
 */
export function encoderFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  options: Pick<LocalEncoderOptions, 'onUnavailable'> = {},
): EncoderSource {
  const config = readEncoderConfig(env);
  if (!config.enabled) return () => Promise.resolve(null);
  let hold: Promise<SentenceEncoder | null> | null = null;
  return () => {
    hold ??= sharedEncoder({ threads: config.threads, ...options }).catch((error: unknown) => {
      hold = null;
      throw error;
    });
    return hold;
  };
}
