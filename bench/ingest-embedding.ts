/**
 * Ingest with the encoder on: how many comments a second the analysis service embeds behind its
 * projection (`IngestEmbedder` → `CommentEmbeddings.embedAtIngest`: claim, encode, store), the
 * stage that bounds ingest once the encoder is on (scoring reads 20,000+ a second a core).
 *
 *   npm run bench -- bench/ingest-embedding.ts
 *
 * INGEST_COMMENTS simulated comments (default 20,000, under the embedder's queue of 20,000 so none
 * is deferred) arrive as `CommentsFetched` events of 250 and are embedded with
 * ANALYST_ENCODER_THREADS threads (default 1, the services' default); printed: comments a second,
 * and the same with 2 threads in the same run for comparison.
 */
import { CommentEmbeddings, IngestEmbedder } from '@analyst/comment-index';
import type { CommentsFetched, FetchedComment } from '@analyst/contracts';
import { loadLocalEncoder } from '@analyst/encoder';
import { MemoryReadStore, type RecordedEvent } from '@analyst/platform';
import { simulatedBodies } from './search-bench/simulated-comments';

const COMMENTS = Number(process.env.INGEST_COMMENTS ?? 20_000);
const CHUNK = 250;

function events(bodies: readonly string[]): RecordedEvent[] {
  const out: RecordedEvent[] = [];
  for (let start = 0; start < bodies.length; start += CHUNK) {
    const chunk = start / CHUNK;
    const comments: FetchedComment[] = bodies.slice(start, start + CHUNK).map((body, i) => ({
      id: `c${start + i}`,
      parentId: null,
      authorUsername: 'someone',
      authorIsCreator: false,
      body,
      likes: 0,
      postedAt: '2026-03-01T00:00:00Z',
      hidden: false,
    }));
    const data: CommentsFetched['data'] = {
      postId: `p${Math.floor(chunk / 10)}`,
      dataVersion: 1,
      chunk: chunk % 10,
      comments,
    };
    out.push({
      type: 'CommentsFetched',
      data,
      metadata: { teamId: 'team-bench' },
      streamId: `post-p${Math.floor(chunk / 10)}`,
      revision: 2 + (chunk % 10),
      position: chunk,
    } as RecordedEvent);
  }
  return out;
}

async function run(threads: number, bodies: readonly string[]): Promise<void> {
  const encoder = await loadLocalEncoder({ threads });
  if (!encoder) throw new Error('the sentence encoder is not installed: npm run model:fetch');
  await encoder.embed(['warm up']);
  const embedder = new IngestEmbedder(
    new CommentEmbeddings(new MemoryReadStore(), async () => encoder),
    (e) => {
      throw e;
    },
  );
  const started = process.hrtime.bigint();
  for (const event of events(bodies)) embedder.apply(event);
  await embedder.idle();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(
    `${threads} thread(s): ${bodies.length} comments embedded at ingest in ${seconds.toFixed(1)} s, ` +
      `${(bodies.length / seconds).toFixed(0)} comments/s (${embedder.counts.embedded} chunks, ${embedder.counts.deferred} deferred)`,
  );
  await encoder.close();
}

async function main() {
  const bodies = simulatedBodies(COMMENTS);
  await run(Number(process.env.ANALYST_ENCODER_THREADS ?? 1), bodies);
  await run(2, bodies);
}

void main();
