// Test-only entry point (`@analyst/eventsourcing/testing`): it imports jest, so production code never loads it.
export * from './decider-specification';
