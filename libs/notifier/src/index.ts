export { NotifierModule } from './notifier.module';
export { EventStreamModule } from './events/event-stream.module';
export { EventStreams } from './events/event-streams';
export { notifierConfigProblems } from './notifier-config-problems';
