export * from './mongo-read-store';
