export * from './tracing';
export * from './messaging';
export * from './start-tracing';
