export * from './read-post-comments';
export * from './posts';
export * from './collections';
export * from './jobs';
