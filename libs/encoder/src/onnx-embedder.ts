import { readFileSync } from 'node:fs';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { CommentTokenizer } from './comment-tokenizer';
import { ModelSpec } from './model-catalogue';
import { ModelPaths } from './model-files';
import { poolInto } from './pooling';

/**
 * The model on onnxruntime, in the thread that made it (the encoder's workers). Each text runs
 * alone: the int8 model quantizes its activations with one scale per run, so a text batched with
 * others got a different vector (cosine down to 0.95 against itself alone, in Python's onnxruntime
 * too), and one text at a time was also the fastest here (no padding; see README).
 */
export class OnnxEmbedder {
  private constructor(
    private readonly session: InferenceSession,
    private readonly tokenizer: CommentTokenizer,
    private readonly spec: ModelSpec,
  ) {}

  static async load(paths: ModelPaths, spec: ModelSpec): Promise<OnnxEmbedder> {
    const tokenizer = new CommentTokenizer(
      JSON.parse(readFileSync(paths.tokenizer, 'utf8')) as object,
      spec.maxTokens,
    );
    // One thread per session: the encoder's parallelism is its workers, each with one text at a
    // time; spinning would only burn the core the event loop and the other workers need.
    const session = await InferenceSession.create(paths.model, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
    });
    return new OnnxEmbedder(session, tokenizer, spec);
  }

  /** The vectors of `texts`, one after the other (texts.length × dims); a text with no token stays zero. */
  async embed(texts: readonly string[]): Promise<Float32Array> {
    const dims = this.spec.dims;
    const out = new Float32Array(texts.length * dims);
    for (let i = 0; i < texts.length; i++) {
      const ids = this.tokenizer.ids(texts[i]);
      if (ids.length <= 2) continue; // [CLS] [SEP] alone: nothing to read
      const hidden = await this.run(ids);
      poolInto(hidden, ids.length, dims, this.spec.pooling, out, i * dims);
    }
    return out;
  }

  private async run(ids: number[]): Promise<Float32Array> {
    const n = ids.length;
    const shape = [1, n];
    const result = await this.session.run({
      input_ids: new Tensor('int64', BigInt64Array.from(ids, BigInt), shape),
      attention_mask: new Tensor('int64', new BigInt64Array(n).fill(1n), shape),
      token_type_ids: new Tensor('int64', new BigInt64Array(n), shape),
    });
    return result.last_hidden_state.data as Float32Array;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
