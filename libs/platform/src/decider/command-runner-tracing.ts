import type { CommandRunnerOptions } from '@analyst/eventsourcing';
import { currentTraceparent } from '../tracing/tracing';

/**
 * The platform's tracing as the core CommandRunner's hook: the active trace context on every event
 * it appends, so the relay and the process managers downstream continue the request's trace.
 * PlatformModule constructs the core's CommandRunner with it.
 */
export const COMMAND_RUNNER_TRACING: CommandRunnerOptions = { traceparent: () => currentTraceparent() };
