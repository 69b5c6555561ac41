import {
  CommandRunner as CoreCommandRunner,
  type Clock,
  type EventStore,
  type IdGenerator,
} from '@analyst/eventsourcing';
import { currentTraceparent } from '../tracing/tracing';

/**
 * The core's CommandRunner with the active trace context on every event it appends, so the relay
 * and the process managers downstream continue the request's trace. Services inject this one.
 */
export class CommandRunner extends CoreCommandRunner {
  constructor(store: EventStore, clock: Clock, ids: IdGenerator) {
    super(store, clock, ids, { traceparent: () => currentTraceparent() });
  }
}
