import type {
  CommandContext,
  CommandOutcome,
  CommandRunner,
  LoadedState,
  RunOptions,
} from './command-runner';
import type { Decider, DomainEvent } from './decider';

/** Which decider a kind of stream belongs to, and how a key names one of its streams. */
export interface StreamBinding<K, C, E extends DomainEvent, S> {
  decider: Decider<C, E, S>;
  /** The stream a key names, `post-<id>` for a post id. */
  streamOf: (key: K) => string;
  /** Per-run choices every command of this stream kind takes (schema versions, a state source…). */
  options?: RunOptions<C, S>;
}

/**
 * The one place a kind of stream meets its decider: callers name the stream by its key and give a
 * command, and never pair a stream with a decider themselves.
 */
export class CommandHandler<K, C, E extends DomainEvent, S> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly binding: StreamBinding<K, C, E, S>,
  ) {}

  /** Loads the stream, decides and appends (deciding again on a concurrent append). */
  handle(
    key: K,
    command: C,
    context: CommandContext,
    options?: RunOptions<C, S>,
  ): Promise<CommandOutcome<S, E>> {
    const { decider, streamOf, options: bound } = this.binding;
    return this.runner.run(streamOf(key), decider, command, context, { ...bound, ...options });
  }

  /**
   * The stream's state as of its last event, and that event's revision (-1 for no stream), read
   * the way commands read it: from the bound state source, else by folding the stream.
   */
  async state(key: K): Promise<LoadedState<S>> {
    const { decider, streamOf, options } = this.binding;
    if (options?.source) return options.source.load(streamOf(key));
    const { state, revision } = await this.runner.load(streamOf(key), decider);
    return { state, revision };
  }
}
