/**
 * A worker thread of the encoder: loads the model once, then answers { id, texts } with
 * { id, vectors } (the buffer transferred, not copied) or { id, error }. onnxruntime-node runs a
 * model synchronously on the thread that calls it, so this is what keeps inference off the
 * service's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ModelSpec } from './model-catalogue';
import { ModelPaths } from './model-files';
import { OnnxEmbedder } from './onnx-embedder';

export interface EncoderWorkerData {
  readonly paths: ModelPaths;
  readonly spec: ModelSpec;
}
export interface EmbedRequest {
  readonly id: number;
  readonly texts: readonly string[];
}
export type EncoderWorkerMessage =
  | { readonly kind: 'ready' }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'vectors'; readonly id: number; readonly vectors: Float32Array }
  | { readonly kind: 'error'; readonly id: number; readonly message: string };

const port = parentPort;
if (!port) throw new Error('encoder-worker runs as a worker thread of the encoder');
const { paths, spec } = workerData as EncoderWorkerData;
const post = (message: EncoderWorkerMessage, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

OnnxEmbedder.load(paths, spec).then(
  (embedder) => {
    // One request at a time, in arrival order: the pool sends a worker its next chunk only after the last.
    port.on('message', ({ id, texts }: EmbedRequest) => {
      embedder.embed(texts).then(
        (vectors) => post({ kind: 'vectors', id, vectors }, [vectors.buffer as ArrayBuffer]),
        (error: unknown) =>
          post({ kind: 'error', id, message: error instanceof Error ? error.message : String(error) }),
      );
    });
    post({ kind: 'ready' });
  },
  (error: unknown) =>
    post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
);
