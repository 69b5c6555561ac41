export * from './unique';
export * from './event-store.contract';
export * from './message-bus.contract';
export * from './read-store.contract';
export * from './test-app';
export * from './post-events';
export * from './fakes/fake-faults';
export * from './fakes/youtube-fake';
