export * from './content-errors';
export * from './tags';
export * from './post';
export * from './collection';
export * from './content-job';
export * from './link-claim';
export * from './request-claim';
