export * from './sampling.module';
export * from './sampling.service';
export * from './sample/sample-query';
export * from './sample/sample-cursor';
export * from './sample/draw-sample';
export * from './sample/comment-row';
export * from './sample/search-matches';
export * from './errors/sampling-error';
