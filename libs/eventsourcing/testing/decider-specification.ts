import { expect } from '@jest/globals';
import { fold, type Decider } from '../src/decider';

/**
 * Given/when/then over a decider's pure functions, no mocks:
 *
 *   DeciderSpecification.for(postDecider).given([created]).when(command).then([expected]);
 *   DeciderSpecification.for(postDecider).given([created]).when(command).thenFails('post_not_found');
 *
 * `then` compares with jest's `toEqual`; `thenFails` asserts that `decide` throws an error whose
 * `code` is the one given (every domain error of the project carries a `code`).
 */
export class DeciderSpecification<C, E, S> {
  private constructor(private readonly decider: Decider<C, E, S>) {}

  static for<C, E, S>(decider: Decider<C, E, S>): DeciderSpecification<C, E, S> {
    return new DeciderSpecification(decider);
  }

  /** The events already in the stream, folded with `evolve` from `initialState`. */
  given(events: E[]): Given<C, E, S> {
    return new Given(this.decider, fold(this.decider, events));
  }
}

export class Given<C, E, S> {
  constructor(
    private readonly decider: Decider<C, E, S>,
    /** The state the given events fold to, for assertions on `evolve` itself. */
    readonly state: S,
  ) {}

  when(command: C): When<E> {
    return new When(() => this.decider.decide(command, this.state));
  }
}

export class When<E> {
  constructor(private readonly run: () => E[]) {}

  /** `decide` returns exactly these events, in this order (`[]`: the command is a no-op). */
  then(expected: E[]): void {
    expect(this.run()).toEqual(expected);
  }

  /** `decide` throws a domain error with this `code` (and, when given, of this class). */
  thenFails(code: string, errorType?: abstract new (...args: never[]) => Error): void {
    expect(() => this.run()).toThrow(expect.objectContaining({ code }));
    if (errorType) expect(() => this.run()).toThrow(errorType);
  }

  /** The decided events, for the rare assertion `then` cannot state (a count, a projection of them). */
  events(): E[] {
    return this.run();
  }
}
