import type { CommandContext, CommandRunner, MessageBus } from '@analyst/platform';

/** The bus is only used to subscribe; "given this event" tests call `handle` directly. */
export const NO_BUS = {} as MessageBus;

export interface RecordedRun {
  streamId: string;
  command: unknown;
  context: CommandContext;
}

/**
 * A CommandRunner that records the commands it is asked to run instead of deciding them. `load`
 * answers the state set for a stream (as a decider would have folded it); `run` answers `after`.
 */
export class RecordingRunner {
  readonly runs: RecordedRun[] = [];
  readonly states = new Map<string, unknown>();
  readonly after = new Map<string, unknown>();
  failure: Error | null = null;

  async load(streamId: string): Promise<{ state: unknown; revision: number; events: [] }> {
    return { state: this.states.get(streamId) ?? { status: 'absent' }, revision: 0, events: [] };
  }

  async run(
    streamId: string,
    _decider: unknown,
    command: unknown,
    context: CommandContext,
  ): Promise<{ state: unknown; events: []; position: number; revision: number }> {
    if (this.failure) throw this.failure;
    this.runs.push({ streamId, command, context });
    return {
      state: this.after.get(streamId) ?? this.states.get(streamId),
      events: [],
      position: -1,
      revision: 0,
    };
  }

  asRunner(): CommandRunner {
    return this as unknown as CommandRunner;
  }
}
