import Database from 'better-sqlite3';

/** What the shared SQLite event log (the `events` table of sqlite-event-store.ts) holds for one team. */
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
 * Reads the log directly (read-only, beside the running services: WAL lets readers in), so a test
 * sees the facts the event store decided, not a read model that may lag.
 */
export function teamFacts(eventsDb: string, teamId: string): TeamLedgerFacts {
  const db = new Database(eventsDb, { readonly: true, fileMustExist: true });
  try {
    const posts = db
      .prepare(
        `SELECT json_extract(data, '$.normalizedLink') AS link, COUNT(*) AS n FROM events
         WHERE type = 'PostCreated' AND json_extract(data, '$.teamId') = ? GROUP BY link ORDER BY link`,
      )
      .all(teamId) as { link: string; n: number }[];
    const jobs = db
      .prepare(
        `SELECT COUNT(*) AS n FROM events WHERE type = 'ContentJobOpened' AND json_extract(data, '$.teamId') = ?`,
      )
      .get(teamId) as { n: number };
    const ledger = db
      .prepare(
        `SELECT type, json_extract(data, '$.reservationId') AS reservation,
                COALESCE(json_extract(data, '$.charged.maps'), 0) + COALESCE(json_extract(data, '$.charged.adhoc'), 0) AS charged
         FROM events WHERE stream = ? AND type IN ('CreditsReserved', 'CreditsSettled', 'CreditsRefunded') ORDER BY position`,
      )
      .all(`ledger-${teamId}`) as { type: string; reservation: string; charged: number }[];
    const closed = new Set(ledger.filter((e) => e.type !== 'CreditsReserved').map((e) => e.reservation));
    return {
      postsPerLink: Object.fromEntries(posts.map((p) => [p.link, p.n])),
      jobsOpened: jobs.n,
      reservations: ledger.filter((e) => e.type === 'CreditsReserved').length,
      charged: ledger.filter((e) => e.type === 'CreditsSettled').reduce((sum, e) => sum + e.charged, 0),
      settlements: ledger.filter((e) => e.type === 'CreditsSettled').length,
      refunds: ledger.filter((e) => e.type === 'CreditsRefunded').length,
      openReservations: ledger
        .filter((e) => e.type === 'CreditsReserved' && !closed.has(e.reservation))
        .map((e) => e.reservation),
    };
  } finally {
    db.close();
  }
}

/** PostCreated events of the team so far (to time a kill while an add is creating posts). */
export function postsCreated(eventsDb: string, teamId: string): number {
  const db = new Database(eventsDb, { readonly: true, fileMustExist: true });
  try {
    return (
      db
        .prepare(
          `SELECT COUNT(*) AS n FROM events WHERE type = 'PostCreated' AND json_extract(data, '$.teamId') = ?`,
        )
        .get(teamId) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

/** The events of one content job's stream, with when each was decided (metadata occurredAt, ms). */
export function jobTimeline(eventsDb: string, jobId: string): { type: string; at: number }[] {
  const db = new Database(eventsDb, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `SELECT type, json_extract(metadata, '$.occurredAt') AS at FROM events WHERE stream = ? ORDER BY revision`,
      )
      .all(`contentjob-${jobId}`) as { type: string; at: string }[];
    return rows.map((r) => ({ type: r.type, at: Date.parse(r.at) }));
  } finally {
    db.close();
  }
}

/** The claims of an analysis job in log order: which worker (host:pid:random) took it, as which attempt. */
export function analysisClaims(eventsDb: string, analysisId: string): { worker: string; attempt: number }[] {
  const db = new Database(eventsDb, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT json_extract(data, '$.worker') AS worker, json_extract(data, '$.attempt') AS attempt
         FROM events WHERE stream = ? AND type = 'AnalysisClaimed' ORDER BY position`,
      )
      .all(`analysis-${analysisId}`) as { worker: string; attempt: number }[];
  } finally {
    db.close();
  }
}

/** Claims a team's requests left in the log: what a refused request must not have written. */
export interface TeamClaims {
  /** Events on the team's `contentrequest-` streams (one per body, one more per Idempotency-Key). */
  requestClaims: number;
  /** Events on the team's `postlink-` streams (a link claimed, or released). */
  linkClaims: number;
}

export function teamClaims(eventsDb: string, teamId: string): TeamClaims {
  const db = new Database(eventsDb, { readonly: true, fileMustExist: true });
  try {
    const count = (prefix: string) =>
      (
        db
          .prepare(`SELECT COUNT(*) AS n FROM events WHERE substr(stream, 1, ?) = ?`)
          .get(prefix.length, prefix) as { n: number }
      ).n;
    return {
      requestClaims: count(`contentrequest-${teamId}-`),
      linkClaims: count(`postlink-${teamId}-`),
    };
  } finally {
    db.close();
  }
}
