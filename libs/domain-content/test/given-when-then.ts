/** `given(events).when(command).then(events)` over any decider: no mocks, only the pure functions. */
export function givenFor<C, E, S>(decider: {
  initialState: () => S;
  decide: (c: C, s: S) => E[];
  evolve: (s: S, e: E) => S;
}) {
  return (events: E[]) => {
    const state = events.reduce(decider.evolve, decider.initialState());
    return {
      state,
      when(command: C) {
        const run = () => decider.decide(command, state);
        return {
          then(expected: E[]) {
            expect(run()).toEqual(expected);
          },
          thenFails(code: string) {
            expect(run).toThrow(expect.objectContaining({ code }));
          },
          events: run,
        };
      },
    };
  };
}
