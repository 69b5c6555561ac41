import { Worker } from 'node:worker_threads';
import type { EmbedRequest, EncoderWorkerData, EncoderWorkerMessage } from './encoder-worker';
import { startEncoderThread } from './encoder-threads';
import { SentenceEncoder } from './sentence-encoder';

interface PendingEmbed {
  readonly texts: readonly string[];
  readonly out: Float32Array[];
  /** The first text not yet handed to a worker. */
  next: number;
  /** Chunks handed out and not answered yet. */
  inFlight: number;
  settled: boolean;
  readonly resolve: (vectors: Float32Array[]) => void;
  readonly reject: (error: Error) => void;
}

interface Chunk {
  readonly id: number;
  readonly embed: PendingEmbed;
  readonly start: number;
  readonly count: number;
}

interface Slot {
  readonly worker: Worker;
  chunk: Chunk | null;
}

function awaitReady(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: EncoderWorkerMessage) => {
      if (message.kind === 'ready') done(null);
      else if (message.kind === 'failed') done(new Error(message.message));
    };
    const onError = (error: Error) => done(error);
    const onExit = (code: number) =>
      done(new Error(`the encoder thread exited (code ${code}) while loading`));
    const done = (error: Error | null) => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

/**
 * The encoder over worker threads, each with its own copy of the model. A call's texts go out in
 * chunks of `batchSize`; concurrent calls take turns chunk by chunk, so a one-query search is not
 * queued behind a 100,000-comment backfill. Idle threads are unref'd: an open encoder never keeps
 * the process alive.
 */
export class WorkerPoolEncoder implements SentenceEncoder {
  private readonly slots: Slot[];
  /** Calls with texts not yet handed out, in turn order. */
  private readonly queue: PendingEmbed[] = [];
  private nextId = 0;
  private failure: Error | null = null;
  private closed = false;

  private constructor(
    readonly model: string,
    readonly dims: number,
    workers: Worker[],
    private readonly batchSize: number,
  ) {
    this.slots = workers.map((worker) => ({ worker, chunk: null }));
    for (const slot of this.slots) {
      slot.worker.on('message', (message: EncoderWorkerMessage) => this.onMessage(slot, message));
      slot.worker.on('error', (error: Error) =>
        this.fail(new Error(`an encoder thread failed: ${error.message}`)),
      );
      slot.worker.on('exit', (code: number) =>
        this.fail(new Error(`an encoder thread exited (code ${code})`)),
      );
      slot.worker.unref();
    }
  }

  /** Starts `threads` workers and resolves once every one has loaded the model. */
  static async start(
    data: EncoderWorkerData,
    options: { threads: number; batchSize: number },
  ): Promise<WorkerPoolEncoder> {
    const workers = Array.from({ length: options.threads }, () => startEncoderThread(data));
    try {
      await Promise.all(workers.map(awaitReady));
    } catch (error) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw new Error(
        `the sentence encoder's model ${data.spec.name} could not be loaded: ${(error as Error).message}`,
      );
    }
    return new WorkerPoolEncoder(data.spec.name, data.spec.dims, workers, options.batchSize);
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (this.closed) return Promise.reject(new Error('the sentence encoder is closed'));
    if (this.failure) return Promise.reject(this.failure);
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const out = new Array<Float32Array>(texts.length);
      this.queue.push({ texts: [...texts], out, next: 0, inFlight: 0, settled: false, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.rejectAll(new Error('the sentence encoder was closed'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  /** Hands each idle worker the next chunk, taking the calls in turn. */
  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.chunk) continue;
      const embed = this.queue.shift();
      if (!embed) return;
      const count = Math.min(this.batchSize, embed.texts.length - embed.next);
      const chunk: Chunk = { id: this.nextId++, embed, start: embed.next, count };
      embed.next += count;
      embed.inFlight++;
      if (embed.next < embed.texts.length) this.queue.push(embed);
      slot.chunk = chunk;
      slot.worker.ref();
      const request: EmbedRequest = {
        id: chunk.id,
        texts: embed.texts.slice(chunk.start, chunk.start + count),
      };
      slot.worker.postMessage(request);
    }
  }

  private onMessage(slot: Slot, message: EncoderWorkerMessage): void {
    const chunk = slot.chunk;
    if (!chunk || (message.kind !== 'vectors' && message.kind !== 'error') || message.id !== chunk.id) return;
    slot.chunk = null;
    slot.worker.unref();
    const { embed } = chunk;
    embed.inFlight--;
    if (message.kind === 'error')
      this.settle(embed, new Error(`the sentence encoder failed: ${message.message}`));
    else {
      for (let i = 0; i < chunk.count; i++)
        embed.out[chunk.start + i] = new Float32Array(
          message.vectors.buffer,
          i * this.dims * Float32Array.BYTES_PER_ELEMENT,
          this.dims,
        );
      if (embed.next === embed.texts.length && embed.inFlight === 0) this.settle(embed, null);
    }
    this.dispatch();
  }

  private settle(embed: PendingEmbed, error: Error | null): void {
    if (embed.settled) return;
    embed.settled = true;
    const queued = this.queue.indexOf(embed);
    if (queued >= 0) this.queue.splice(queued, 1);
    if (error) embed.reject(error);
    else embed.resolve(embed.out);
  }

  /** A thread died: every call fails with the reason, and so does every later one. */
  private fail(error: Error): void {
    if (this.closed || this.failure) return;
    this.failure = error;
    this.rejectAll(error);
    void Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private rejectAll(error: Error): void {
    const pending = new Set([
      ...this.queue,
      ...this.slots.flatMap((slot) => (slot.chunk ? [slot.chunk.embed] : [])),
    ]);
    this.queue.length = 0;
    for (const slot of this.slots) slot.chunk = null;
    for (const embed of pending) this.settle(embed, error);
  }
}
