import type { LedgerEvent } from '@analyst/contracts';
import {
  decide,
  evolve,
  initialLedgerState,
  type LedgerCommand,
  type LedgerState,
} from '@analyst/domain-ledger';

/** `given(events).when(command).then(events)`, or `.thenFails(code)`: no mocks, only the decider. */
export function given(events: LedgerEvent[]) {
  const state: LedgerState = events.reduce(evolve, initialLedgerState());
  return {
    state,
    when(command: LedgerCommand) {
      const run = () => decide(command, state);
      return {
        then(expected: LedgerEvent[]) {
          expect(run()).toEqual(expected);
        },
        thenFails(code: string) {
          expect(run).toThrow(expect.objectContaining({ code }));
        },
        events: run,
      };
    },
  };
}
