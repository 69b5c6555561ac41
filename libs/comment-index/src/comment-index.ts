// The old path of team-index/team-index.ts, kept while comment-filters.ts (edited for issue 41 item 2
// at the same time) still imports it; removed once that file imports the new path.
export * from './team-index/team-index';
