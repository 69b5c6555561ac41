export * from './analysis.module';
export * from './analyses/analysis-job-worker';
export * from './analyses/analysis-queries';
export * from './create-analysis/create-analysis.handler';
export * from './create-analysis/analysis-request';
export * from './errors/analysis-error';
export * from './analysis-read-models';
