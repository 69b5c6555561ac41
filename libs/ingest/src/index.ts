export * from './ingest.module';
export * from './ingest.tokens';
export * from './projections';
export * from './queries';
export * from './adding/requester';
export * from './adding/add-posts.handler';
export * from './jobs/job-reader';
export * from './jobs/job-view';
