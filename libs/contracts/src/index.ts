export * from './plans';
export * from './scopes';
export * from './identity-events';
export * from './api-error';
export * from './ledger';
export * from './buckets';
export * from './comments';
export * from './content';
