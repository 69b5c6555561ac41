export * from './identity-errors';
export * from './rate-classes';
export * from './utc-windows';
export * from './api-key-format';
export * from './team.decider';
export * from './api-key.decider';
