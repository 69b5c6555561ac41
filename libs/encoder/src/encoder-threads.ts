import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EncoderWorkerData } from './encoder-worker';

/**
 * Starts one encoder worker thread. From a build it runs encoder-worker.js beside this file; from
 * the TypeScript sources (jest, `npm run bench`) the thread first registers the same SWC compiler
 * the bench uses (a devDependency, present wherever the sources run).
 */
export function startEncoderThread(data: EncoderWorkerData): Worker {
  if (!__filename.endsWith('.ts'))
    return new Worker(join(__dirname, 'encoder-worker.js'), { workerData: data });
  const bootstrap = [
    `process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || ${JSON.stringify(join(__dirname, '..', '..', '..', 'tsconfig.json'))};`,
    `require(${JSON.stringify(require.resolve('@swc-node/register'))});`,
    `require(${JSON.stringify(join(__dirname, 'encoder-worker.ts'))});`,
  ].join('\n');
  return new Worker(bootstrap, { eval: true, workerData: data });
}
