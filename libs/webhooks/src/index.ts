export * from './webhook-events';
