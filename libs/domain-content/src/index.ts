export * from './content-errors';
export * from './tags';
export * from './post';
export * from './collection';
export * from './content-job';
