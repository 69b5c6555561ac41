export * from './analysis.module';
export * from './index/comment-index.service';
export * from './analyses/analysis.service';
export * from './analyses/analysis-request';
