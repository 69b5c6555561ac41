import type { EventStore, RecordedEvent } from '@analyst/platform';

/** What the shared event log holds for one team. */
export interface TeamLedgerFacts {
  /** PostCreated per normalized link. */
  postsPerLink: Record<string, number>;
  /** ContentJobOpened events of the team: one per job. */
  jobsOpened: number;
  reservations: number;
  /** Units charged by CreditsSettled (MAPs plus Ad Hoc). */
  charged: number;
  settlements: number;
  refunds: number;
  /** CreditsReserved whose reservation id no CreditsSettled or CreditsRefunded closed. */
  openReservations: string[];
}

/**
 * These helpers read the log through the EventStore port (a client of the suite's log beside the
 * running services, used only to read), so a test sees the facts the event store decided, not a
 * read model that may lag, whichever store the services run on.
 */

type Data = Record<string, any>;
const dataOf = (event: RecordedEvent) => (event.data ?? {}) as Data;

/**
 * The facts that span streams (posts and jobs by team, claim streams by name), folded from the
 * whole log once and then from where the last read stopped: a poll every 20 ms must not re-read
 * every comment batch. Both adapters make positions visible in increasing order, so a cursor on
 * the last position seen skips nothing.
 */
interface CrossStreamFacts {
  after: number;
  /** team → normalized link → PostCreated count. */
  posts: Map<string, Map<string, number>>;
  /** team → ContentJobOpened count. */
  jobsOpened: Map<string, number>;
  /** Events per `contentrequest-…` and `postlink-…` stream (counted by a team's prefix on demand). */
  claimStreams: Map<string, number>;
  /** The read in progress, so concurrent callers share it instead of folding a page twice. */
  reading: Promise<void> | null;
}

const CLAIM_STREAMS = ['contentrequest-', 'postlink-'];
const folded = new WeakMap<EventStore, CrossStreamFacts>();

function fold(facts: CrossStreamFacts, event: RecordedEvent): void {
  if (event.type === 'PostCreated') {
    const { teamId, normalizedLink } = dataOf(event);
    let links = facts.posts.get(teamId);
    if (!links) facts.posts.set(teamId, (links = new Map()));
    // String(): SQL grouped a missing link under NULL, which became the key "null".
    const link = String(normalizedLink ?? null);
    links.set(link, (links.get(link) ?? 0) + 1);
  } else if (event.type === 'ContentJobOpened') {
    const { teamId } = dataOf(event);
    facts.jobsOpened.set(teamId, (facts.jobsOpened.get(teamId) ?? 0) + 1);
  }
  if (CLAIM_STREAMS.some((prefix) => event.streamId.startsWith(prefix)))
    facts.claimStreams.set(event.streamId, (facts.claimStreams.get(event.streamId) ?? 0) + 1);
}

/** The cross-stream facts as of now: everything appended before this call began is folded in. */
async function crossStreamFacts(store: EventStore): Promise<CrossStreamFacts> {
  let facts = folded.get(store);
  if (!facts) {
    facts = { after: -1, posts: new Map(), jobsOpened: new Map(), claimStreams: new Map(), reading: null };
    folded.set(store, facts);
  }
  // A read already under way may have passed events appended before this call: wait, then read on.
  while (facts.reading) await facts.reading;
  const f = facts;
  f.reading = (async () => {
    for await (const page of store.readAll(f.after)) {
      for (const event of page) fold(f, event);
      f.after = page[page.length - 1].position;
    }
  })().finally(() => (f.reading = null));
  await f.reading;
  return f;
}

export async function teamFacts(store: EventStore, teamId: string): Promise<TeamLedgerFacts> {
  const facts = await crossStreamFacts(store);
  const links = [...(facts.posts.get(teamId) ?? new Map<string, number>())].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const ledger = (await store.readStream(`ledger-${teamId}`))
    .filter((e) => ['CreditsReserved', 'CreditsSettled', 'CreditsRefunded'].includes(e.type))
    .map((e) => {
      const data = dataOf(e);
      return {
        type: e.type,
        reservation: data.reservationId as string,
        charged: (data.charged?.maps ?? 0) + (data.charged?.adhoc ?? 0),
      };
    });
  const closed = new Set(ledger.filter((e) => e.type !== 'CreditsReserved').map((e) => e.reservation));
  return {
    postsPerLink: Object.fromEntries(links),
    jobsOpened: facts.jobsOpened.get(teamId) ?? 0,
    reservations: ledger.filter((e) => e.type === 'CreditsReserved').length,
    charged: ledger.filter((e) => e.type === 'CreditsSettled').reduce((sum, e) => sum + e.charged, 0),
    settlements: ledger.filter((e) => e.type === 'CreditsSettled').length,
    refunds: ledger.filter((e) => e.type === 'CreditsRefunded').length,
    openReservations: ledger
      .filter((e) => e.type === 'CreditsReserved' && !closed.has(e.reservation))
      .map((e) => e.reservation),
  };
}

/** PostCreated events of the team so far (to time a kill while an add is creating posts). */
export async function postsCreated(store: EventStore, teamId: string): Promise<number> {
  const links = (await crossStreamFacts(store)).posts.get(teamId);
  return links ? [...links.values()].reduce((a, b) => a + b, 0) : 0;
}

/** The events of one content job's stream, with when each was decided (metadata occurredAt, ms). */
export async function jobTimeline(store: EventStore, jobId: string): Promise<{ type: string; at: number }[]> {
  const events = await store.readStream(`contentjob-${jobId}`);
  return events.map((e) => ({ type: e.type, at: Date.parse(e.metadata.occurredAt) }));
}

/** The claims of an analysis job in log order: which worker (host:pid:random) took it, as which attempt. */
export async function analysisClaims(
  store: EventStore,
  analysisId: string,
): Promise<{ worker: string; attempt: number }[]> {
  const events = await store.readStream(`analysis-${analysisId}`);
  return events
    .filter((e) => e.type === 'AnalysisClaimed')
    .map((e) => ({ worker: dataOf(e).worker, attempt: dataOf(e).attempt }));
}

/** Claims a team's requests left in the log: what a refused request must not have written. */
export interface TeamClaims {
  /** Events on the team's `contentrequest-` streams (one per body, one more per Idempotency-Key). */
  requestClaims: number;
  /** Events on the team's `postlink-` streams (a link claimed, or released). */
  linkClaims: number;
}

export async function teamClaims(store: EventStore, teamId: string): Promise<TeamClaims> {
  const { claimStreams } = await crossStreamFacts(store);
  const count = (prefix: string) =>
    [...claimStreams].filter(([stream]) => stream.startsWith(prefix)).reduce((sum, [, n]) => sum + n, 0);
  return {
    requestClaims: count(`contentrequest-${teamId}-`),
    linkClaims: count(`postlink-${teamId}-`),
  };
}
