import { LEDGER_STREAM_PREFIX, ledgerStream, type CreditBalances, type LedgerEvent } from '@analyst/contracts';
import { applyChange, balanceChange, LedgerAuditor, statementLine, type AuditViolation, type TeamAudit } from '@analyst/domain-ledger';
import { ledgerBalancesProjector, ledgerReservationsProjector } from '../projections';
import type { Doc, EventStore, Projector, ReadStore, RecordedEvent } from '@analyst/platform';
import { readOutstandingReservations } from '../queries/read-reservations';
import { readTeamCredits } from '../queries/read-team-credits';
import type { StatementWriter } from './statement-export';
import { ProjectorFold } from './projector-fold';

export interface AuditOptions {
  team?: string;
  statement?: StatementWriter;
  /** Called every page with the last position read. */
  onProgress?: (position: number, events: number) => void;
  /** Live read models to compare with as well (MongoDB in the distributed topology). */
  liveReadModels?: ReadStore;
}

export interface ReadModelComparison {
  source: 'rebuilt' | 'live';
  teamId: string;
  recomputed: CreditBalances;
  readModel: CreditBalances;
  openReservations: { recomputed: number; readModel: number };
  ok: boolean;
}

export interface AuditReport {
  ok: boolean;
  events: number;
  ledgerEvents: number;
  headPosition: number;
  teams: TeamAudit[];
  comparisons: ReadModelComparison[];
  violations: AuditViolation[];
  seconds: number;
}

/**
 * Finance's audit: replays the ledger streams from the first event without touching any read
 * model, recomputes every balance, checks the invariants, then compares the result with the read
 * models rebuilt through the projectors (and with live ones when given).
 */
export async function auditLedger(events: EventStore, options: AuditOptions = {}): Promise<AuditReport> {
  const started = Date.now();
  const auditor = new LedgerAuditor();
  // The statement read model is a view of the same events; the balances and open reservations are
  // what the figures must agree on, so only those two are refolded (it keeps 1M events under 10 s).
  const fold = new ProjectorFold([ledgerBalancesProjector, ledgerReservationsProjector] as unknown as Projector<Doc>[]);
  const running = new Map<string, CreditBalances>();
  const wantedStream = options.team ? ledgerStream(options.team) : null;
  const headPosition = await events.headPosition();
  let count = 0;
  let ledgerCount = 0;
  for await (const page of events.readAll(-1, 10_000)) {
    for (const event of page) {
      count += 1;
      if (wantedStream ? event.streamId !== wantedStream : !event.streamId.startsWith(LEDGER_STREAM_PREFIX)) continue;
      ledgerCount += 1;
      auditor.feed(event);
      fold.apply(event);
      if (options.statement) await writeLine(options.statement, running, event);
    }
    options.onProgress?.(page[page.length - 1].position, count);
  }
  const { teams, violations } = auditor.finish();
  const comparisons: ReadModelComparison[] = [];
  const rebuilt = await fold.toReadStore();
  const sources: [ReadModelComparison['source'], ReadStore][] = [['rebuilt', rebuilt]];
  if (options.liveReadModels) sources.push(['live', options.liveReadModels]);
  for (const [source, store] of sources) {
    for (const team of teams) {
      const readModel = await readTeamCredits(store, team.teamId);
      const open = (await readOutstandingReservations(store, team.teamId)).length;
      const ok =
        readModel.maps === team.balances.maps &&
        readModel.adhoc === team.balances.adhoc &&
        readModel.reserved === team.balances.reserved &&
        open === team.reservations.open;
      comparisons.push({ source, teamId: team.teamId, recomputed: team.balances, readModel, openReservations: { recomputed: team.reservations.open, readModel: open }, ok });
      if (!ok) {
        violations.push({
          teamId: team.teamId,
          eventId: null,
          position: null,
          revision: null,
          type: null,
          message: `${source} read model shows ${fmt(readModel)} (${open} open) but the log gives ${fmt(team.balances)} (${team.reservations.open} open)`,
        });
      }
    }
  }
  return {
    ok: violations.length === 0,
    events: count,
    ledgerEvents: ledgerCount,
    headPosition,
    teams,
    comparisons,
    violations,
    seconds: (Date.now() - started) / 1000,
  };
}

async function writeLine(writer: StatementWriter, running: Map<string, CreditBalances>, event: RecordedEvent): Promise<void> {
  const before = running.get(event.streamId) ?? { maps: 0, adhoc: 0, reserved: 0 };
  const line = statementLine(event, before);
  running.set(event.streamId, applyChange(before, balanceChange({ type: event.type, data: event.data } as LedgerEvent)));
  await writer.write(line);
}

function fmt(b: CreditBalances): string {
  return `maps ${b.maps} / adhoc ${b.adhoc} / reserved ${b.reserved}`;
}
