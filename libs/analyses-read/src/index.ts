export * from './analyses.projector';
export * from './saved-analyses.projector';
