// One team in memory (the team index), and the fold that builds team indexes straight from events.
export * from './team-index/team-index';
export * from './team-index/catalog-entries';
export * from './team-index/row-details';
export * from './team-index/row-texts';
export * from './team-index/materialized-post';
export * from './team-index/folded-teams';
// What an analysis computes over a team index.
export * from './compute-analysis';
export * from './comment-filters';
// What the services project into the read store.
export * from './read-models/packed-columns';
export * from './read-models/comment-chunks.projector';
export * from './read-models/catalog-posts.projector';
export * from './read-models/catalog-teams.projector';
export * from './read-models/post-analyses.step';
export * from './read-models/comment-read-models';
// How a replica reads them: the read side, its cache and the teams it holds.
export * from './read-side/cached-team';
export * from './read-side/load-rows';
export * from './read-side/read-cache';
export * from './read-side/comment-read-side';
// AI search.
export * from './search/search-model.port';
export * from './search/bm25-search';
export * from './search/own-relevance';
export * from './search/embeddings-search';
export * from './search/search-rows';
export * from './search/sentence-encoder.port';
export * from './search/quantized-vectors';
export * from './search/search-calibration';
export * from './search/encoder-search';
export * from './search/comment-embeddings';
export * from './search/ingest-embedder';
export * from './search/search-setup';
