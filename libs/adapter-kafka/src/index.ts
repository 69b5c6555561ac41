export * from './kafka-bus';
export * from './kafka-hooks';
export * from './kafka-log';
export * from './kafka-leaked-rejections';
