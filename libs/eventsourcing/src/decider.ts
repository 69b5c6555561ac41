/**
 * An aggregate as two pure functions. `decide` turns a command and the current state into new
 * events (or throws a typed domain error); `evolve` folds an event into the state.
 */
export interface Decider<Command, Event, State> {
  initialState: () => State;
  decide: (command: Command, state: State) => Event[];
  evolve: (state: State, event: Event) => State;
}

/** Command as deciders see it: a stable type string and its data, the same shape as an event. */
export interface Command<TType extends string = string, TData = unknown> {
  type: TType;
  data: TData;
}

/** Domain event as deciders see it: a stable type string and its data. */
export interface DomainEvent<TType extends string = string, TData = unknown> {
  type: TType;
  data: TData;
}

export function fold<E, S>(decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>, events: E[]): S {
  return events.reduce(decider.evolve, decider.initialState());
}
