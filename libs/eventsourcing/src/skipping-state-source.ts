import type { LoadedState, StateSource } from './command-runner';
import type { Decider, DomainEvent } from './decider';
import { deciderEvent } from './event-boundary';
import type { EventStore } from './event-store.port';

/**
 * A StateSource that folds a stream without the event types its decider ignores, so a command's
 * cost does not grow with them: a post's decisions never read its comment chunks
 * (`POST_PAYLOAD_EVENT_TYPES` in `@analyst/domain-content`). The revision it reports is the
 * stream's last event of any type, a skipped one included, so the append's expected revision is
 * the real head. Only a decider whose `evolve` returns the state unchanged for every skipped type
 * may be given one: the state is then exactly the whole stream's fold.
 *
 * It keeps nothing between loads: a cache would hold a state for every post ever commanded, for
 * the few events (a handful a version) it saves reading.
 */
export class SkippingStateSource<E extends DomainEvent, S> implements StateSource<S> {
  constructor(
    private readonly store: EventStore,
    private readonly decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>,
    private readonly skipTypes: readonly E['type'][],
  ) {}

  async load(streamId: string): Promise<LoadedState<S>> {
    const { events, revision } = await this.store.readStreamExcept(streamId, this.skipTypes);
    const state = events.reduce(
      (s, e) => this.decider.evolve(s, deciderEvent<E>(e)),
      this.decider.initialState(),
    );
    return { state, revision };
  }
}
