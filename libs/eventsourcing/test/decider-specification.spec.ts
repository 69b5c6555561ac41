import { fold, type Decider } from '@analyst/eventsourcing';
import { DeciderSpecification } from '@analyst/eventsourcing/testing';

// A counter that refuses to go below zero: just enough decider to exercise the harness.
type CounterEvent = { type: 'Added'; data: { n: number } } | { type: 'Removed'; data: { n: number } };
type CounterCommand = { type: 'Add'; n: number } | { type: 'Remove'; n: number };

class CounterError extends Error {
  constructor(readonly code: 'not_enough' | 'not_positive') {
    super(code);
  }
}

const counter: Decider<CounterCommand, CounterEvent, number> = {
  initialState: () => 0,
  decide: (command, total) => {
    if (command.n <= 0) throw new CounterError('not_positive');
    if (command.type === 'Add') return [{ type: 'Added', data: { n: command.n } }];
    if (command.n > total) throw new CounterError('not_enough');
    return [{ type: 'Removed', data: { n: command.n } }];
  },
  evolve: (total, event) => (event.type === 'Added' ? total + event.data.n : total - event.data.n),
};
const added = (n: number): CounterEvent => ({ type: 'Added', data: { n } });

describe('DeciderSpecification', () => {
  it('folds the given events into the state the command is decided on', () => {
    expect(DeciderSpecification.for(counter).given([added(2), added(3)]).state).toBe(5);
    expect(fold(counter, [added(2), added(3)])).toBe(5);
  });

  it('then() passes when decide returns exactly the expected events', () => {
    DeciderSpecification.for(counter)
      .given([added(2)])
      .when({ type: 'Remove', n: 2 })
      .then([{ type: 'Removed', data: { n: 2 } }]);
  });

  it('then() fails when the events differ', () => {
    const when = DeciderSpecification.for(counter)
      .given([added(2)])
      .when({ type: 'Remove', n: 1 });
    expect(() => when.then([{ type: 'Removed', data: { n: 2 } }])).toThrow();
    expect(() => when.then([])).toThrow();
    expect(() => when.then([{ type: 'Removed', data: { n: 1 } }, added(1)])).toThrow();
  });

  it('then() fails when decide throws', () => {
    const when = DeciderSpecification.for(counter).given([]).when({ type: 'Remove', n: 1 });
    expect(() => when.then([])).toThrow('not_enough');
  });

  it('thenFails() passes when decide throws an error with that code', () => {
    DeciderSpecification.for(counter)
      .given([added(1)])
      .when({ type: 'Remove', n: 2 })
      .thenFails('not_enough');
  });

  it('thenFails() fails when nothing is thrown', () => {
    const when = DeciderSpecification.for(counter)
      .given([added(2)])
      .when({ type: 'Remove', n: 2 });
    expect(() => when.thenFails('not_enough')).toThrow();
  });

  it('thenFails() fails when the error has another code', () => {
    const when = DeciderSpecification.for(counter).given([]).when({ type: 'Add', n: 0 });
    expect(() => when.thenFails('not_enough')).toThrow();
    when.thenFails('not_positive');
  });

  it('thenFails() with an error class also checks the class', () => {
    const when = DeciderSpecification.for(counter).given([]).when({ type: 'Add', n: 0 });
    when.thenFails('not_positive', CounterError);
    expect(() => when.thenFails('not_positive', TypeError)).toThrow();
  });

  it('events() hands back the decided events for assertions then() cannot state', () => {
    expect(DeciderSpecification.for(counter).given([]).when({ type: 'Add', n: 4 }).events()).toEqual([
      added(4),
    ]);
  });
});
