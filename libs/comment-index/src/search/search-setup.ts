import { READ_STORE, type ReadStore } from '@analyst/platform';
import { Bm25SearchModel } from './bm25-search';
import { CommentEmbeddings } from './comment-embeddings';
import { EmbeddingsSearchModel } from './embeddings-search';
import { EncoderSearchModel } from './encoder-search';
import type { SearchModel } from './search-model.port';
import type { EncoderSource } from './sentence-encoder.port';

/** The AI search of a service: its model and, for the local encoder, where vectors are kept. */
export interface SearchSetup {
  model: SearchModel;
  /** Null unless the model reads stored vectors. */
  embeddings: CommentEmbeddings | null;
  /** Why the search is not the default one, for the service's start log; null when it is. */
  notice: string | null;
}

export const SEARCH_SETUP = Symbol('SearchSetup');

/**
 * Which AI search a service runs: an embeddings endpoint when ANALYST_EMBEDDINGS_URL is set; else
 * the local sentence encoder (the default) with its vectors kept in the read store; with the
 * encoder switched off (`encoder` null: ANALYST_ENCODER=off), keywords alone, said at start.
 */
export function searchSetup(
  env: Record<string, string | undefined>,
  store: ReadStore,
  encoder: EncoderSource | null,
): SearchSetup {
  const url = env.ANALYST_EMBEDDINGS_URL;
  if (url)
    return {
      model: new EmbeddingsSearchModel(url, {
        apiKey: env.ANALYST_EMBEDDINGS_KEY,
        model: env.ANALYST_EMBEDDINGS_MODEL,
      }),
      embeddings: null,
      notice: `AI search through the embeddings endpoint ${new URL(url).host}`,
    };
  if (!encoder)
    return {
      model: new Bm25SearchModel(),
      embeddings: null,
      notice: 'ANALYST_ENCODER=off: AI search reads keywords only (BM25), not meaning',
    };
  return {
    model: new EncoderSearchModel(encoder),
    embeddings: new CommentEmbeddings(store, encoder),
    notice: null,
  };
}

/**
 * The service module's provider of its SearchSetup from the environment (a plain factory provider,
 * no decorators). `encoderFor` gives the local encoder, or null when ANALYST_ENCODER is off.
 */
export function searchSetupProvider(
  encoderFor: (env: Record<string, string | undefined>) => EncoderSource | null,
) {
  return {
    provide: SEARCH_SETUP,
    inject: [READ_STORE],
    useFactory: (store: ReadStore): SearchSetup => searchSetup(process.env, store, encoderFor(process.env)),
  };
}
