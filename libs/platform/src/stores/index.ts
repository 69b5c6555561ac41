export * from './store-locations';
export * from './store-settings';
export * from './open-stores';
