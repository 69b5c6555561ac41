/* global db, sh, print, DB */
// Shards the read side's collections by team (issue 20). Run once per database with mongosh against
// a sharded cluster's mongos, before or after the services created the collections:
//   mongosh "$MONGO_URL" --eval 'const DB = "analyst"' deploy/mongodb/shard-read-side.js
// Every query of analysis and sampling names the team first, so a team's reads go to its shards
// only. The indexes are the ones the services create at start (the shard key's prefix must exist).
const database = typeof DB === 'string' ? DB : 'analyst';
const target = db.getSiblingDB(database);

const collections = [
  // Comment chunks and scores: the loader asks for { teamId, _id: { $in: … } } (targeted by the team,
  // looked up on each shard's _id index), and by { teamId, postId, dataVersion } for versions
  // scored before PostScored counted its chunks.
  {
    name: 'comment_chunks',
    key: { teamId: 1, postId: 1 },
    index: { teamId: 1, postId: 1, dataVersion: 1 },
    indexName: 'team_post_version',
  },
  {
    name: 'comment_scores',
    key: { teamId: 1, postId: 1 },
    index: { teamId: 1, postId: 1, dataVersion: 1 },
    indexName: 'team_post_version',
  },
  // Sentence vectors per fetched chunk (the AI search): read by { teamId, _id: { $in: … } } only.
  {
    name: 'comment_embeddings',
    key: { teamId: 1, postId: 1 },
    index: { teamId: 1, postId: 1 },
    indexName: 'team_post',
  },
  // A team's catalog, in creation order.
  { name: 'analysis_posts', key: { teamId: 1, seq: 1 }, index: { teamId: 1, seq: 1 }, indexName: 'team_seq' },
  // Materialized post analyses, read by team and version ids.
  {
    name: 'post_analyses',
    key: { teamId: 1, postId: 1 },
    index: { teamId: 1, postId: 1 },
    indexName: 'team_post',
  },
  // One small document per team (settings history, collections): hashed by its _id, the team.
  { name: 'analysis_teams', key: { _id: 'hashed' }, index: { _id: 'hashed' }, indexName: '_id_hashed' },
];

sh.enableSharding(database);
for (const c of collections) {
  target.getCollection(c.name).createIndex(c.index, { name: c.indexName });
  sh.shardCollection(`${database}.${c.name}`, c.key);
  print(`${database}.${c.name} sharded on ${JSON.stringify(c.key)}`);
}
