export * from './analysis.module';
export * from './analyses/analysis.service';
export * from './analyses/analysis-request';
export * from './errors/analysis-error';
