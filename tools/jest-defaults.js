// Defaults every jest project starts with. Embedding comments in the background as they are
// projected costs CPU in every test app that ingests; tests read vectors through the search (which
// embeds what it needs), and the tests of embedding at ingest turn it on themselves.
process.env.ANALYST_EMBED_AT_INGEST ??= 'off';
