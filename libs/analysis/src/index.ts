export * from './analysis.module';
export * from './analyses/analysis-job-worker';
export * from './analyses/analysis-queries';
export * from './analyses/create-analysis.handler';
export * from './analyses/analysis-request';
export * from './errors/analysis-error';
