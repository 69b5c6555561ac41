import {
  asPostOutcome,
  LEDGER_EVENT_TYPES,
  LEDGER_STREAM_PREFIX,
  outcomeStatus,
  teamIdOfLedgerStream,
  versionIsCharged,
  type ContentJobOpenedTeam,
  type LedgerEvent,
  type PostCreated,
  type PostHoldResumed,
  type PostOutcomeEvent,
  type PostRefreshRequested,
} from '@analyst/contracts';
import { recordsOf } from '@analyst/eventsourcing';
import type { LedgerRecord } from './ledger-record';
import {
  CHARGE_RULES,
  type ChargeAudit,
  type ChargeFinding,
  type ChargeRule,
  type LedgerEventRef,
  type OpenReservationRow,
  type PostVersionRef,
  type TeamCharges,
} from './charge-findings';

const isLedgerRecord = recordsOf<LedgerEvent>(LEDGER_EVENT_TYPES);
/** The content events that name a reservation for a post version, or a job's team. */
const isRequestRecord = recordsOf<
  PostCreated | PostRefreshRequested | PostHoldResumed | ContentJobOpenedTeam
>(['PostCreated', 'PostRefreshRequested', 'PostHoldResumed', 'ContentJobOpened']);
/** The record as one of those content events, or null. */
const requestOf = (record: LedgerRecord) => (isRequestRecord(record) ? record : null);

export interface ChargeCheckOptions {
  /** ISO instant open reservations are aged against (the caller's clock: this code reads none). */
  now: string;
  /** An open reservation older than this many minutes is a violation. */
  maxOpenMinutes: number;
  /** Report this team only (every team's posts are still indexed, to name another team's post). */
  team?: string;
}

/** Refunds that need no post: the reservation was made but its post never came to be. */
const POSTLESS_REFUND_REASONS = new Set(['create_failed', 'insufficient_credits']);

/** Ingest derives a post's reservation id from its job (`reservationIdFor`): `rs_<jobId>_<16 hex>`. */
const RESERVATION_OF_JOB = /^rs_(.+)_[0-9a-f]{16}$/;

type Refund = LedgerEventRef & { reason: string };

interface Reservation {
  teamId: string;
  reservationId: string;
  reserved: LedgerEventRef;
  amount: number;
  settles: LedgerEventRef[];
  refunds: Refund[];
}

interface Version {
  dataVersion: number;
  /** Reservations named by the version's request (creation or refresh) and by its outcomes. */
  reservationIds: Set<string>;
  outcomes: PostOutcomeEvent[];
}

interface Post {
  postId: string;
  teamId: string;
  link: string;
  normalizedLink: string;
  versions: Map<number, Version>;
}

const key = (teamId: string, reservationId: string) => `${teamId}\u0000${reservationId}`;
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The content side of finance's audit: every credit the ledger charged must have a reason in the
 * content log. Fed every event of the log in order (`feed`), it keeps only the small facts that link
 * a reservation to a post data version (creation and refresh requests, outcomes, job openings, the
 * team's reservations, settles and refunds); `finish` applies the rules. Pure: no clock, no I/O.
 */
export class ChargeAuditor {
  private readonly reservations = new Map<string, Reservation>();
  private readonly posts = new Map<string, Post>();
  private readonly jobs = new Map<string, string>();
  /** reservationId -> the post versions naming it (any team). */
  private readonly namers = new Map<string, { post: Post; version: Version }[]>();

  feed(record: LedgerRecord): void {
    if (record.streamId.startsWith(LEDGER_STREAM_PREFIX)) {
      if (isLedgerRecord(record)) this.ledgerEvent(record, record);
      return;
    }
    const request = requestOf(record);
    switch (request?.type) {
      case 'PostCreated': {
        const d = request.data;
        const post: Post = this.posts.get(d.postId) ?? {
          postId: d.postId,
          teamId: d.teamId,
          link: d.link,
          normalizedLink: d.normalizedLink,
          versions: new Map(),
        };
        this.posts.set(d.postId, post);
        this.request(post, d.dataVersion, d.reservationId);
        return;
      }
      case 'PostRefreshRequested': {
        const d = request.data;
        const post = this.posts.get(d.postId);
        if (post) this.request(post, d.dataVersion, d.reservationId);
        return;
      }
      case 'PostHoldResumed': {
        // A held version fetched again under a fresh reservation: the same version names both.
        const d = request.data;
        const post = this.posts.get(d.postId);
        if (post) this.request(post, d.dataVersion, d.reservationId);
        return;
      }
      case 'ContentJobOpened': {
        const d = request.data;
        this.jobs.set(d.jobId, d.teamId);
        return;
      }
      default: {
        const outcome = asPostOutcome(record);
        const post = outcome && this.posts.get(outcome.data.postId);
        if (!outcome || !post) return;
        const version = this.version(post, outcome.data.dataVersion);
        version.outcomes.push(outcome);
        if (outcome.data.reservationId) this.name(post, version, outcome.data.reservationId);
      }
    }
  }

  private version(post: Post, dataVersion: number): Version {
    let version = post.versions.get(dataVersion);
    if (!version) {
      version = { dataVersion, reservationIds: new Set(), outcomes: [] };
      post.versions.set(dataVersion, version);
    }
    return version;
  }

  private request(post: Post, dataVersion: number, reservationId: string | null): void {
    const version = this.version(post, dataVersion);
    if (reservationId) this.name(post, version, reservationId);
  }

  private name(post: Post, version: Version, reservationId: string): void {
    if (version.reservationIds.has(reservationId)) return;
    version.reservationIds.add(reservationId);
    const namers = this.namers.get(reservationId) ?? [];
    namers.push({ post, version });
    this.namers.set(reservationId, namers);
  }

  private ledgerEvent(record: LedgerRecord, event: LedgerEvent): void {
    if (
      event.type !== 'CreditsReserved' &&
      event.type !== 'CreditsSettled' &&
      event.type !== 'CreditsRefunded'
    )
      return;
    const teamId = teamIdOfLedgerStream(record.streamId);
    const { reservationId } = event.data;
    const ref: LedgerEventRef = {
      reservationId,
      eventId: record.id,
      type: event.type,
      position: record.position,
      revision: record.revision,
      occurredAt: record.metadata.occurredAt,
    };
    if (event.type === 'CreditsReserved') {
      // A second reservation under one id is the arithmetic audit's finding; the first one stands.
      if (!this.reservations.has(key(teamId, reservationId))) {
        this.reservations.set(key(teamId, reservationId), {
          teamId,
          reservationId,
          reserved: ref,
          amount: event.data.amount,
          settles: [],
          refunds: [],
        });
      }
      return;
    }
    const reservation = this.reservations.get(key(teamId, reservationId));
    if (!reservation) return; // settled or refunded without a reservation: the arithmetic audit names it
    if (event.type === 'CreditsSettled') reservation.settles.push(ref);
    else reservation.refunds.push({ ...ref, reason: event.data.reason });
  }

  finish(options: ChargeCheckOptions): ChargeAudit {
    const findings: ChargeFinding[] = [];
    const open: OpenReservationRow[] = [];
    const counts = new Map<string, TeamCharges>();
    const wanted = (teamId: string) => options.team === undefined || options.team === teamId;
    const team = (teamId: string): TeamCharges => {
      let c = counts.get(teamId);
      if (!c)
        counts.set(
          teamId,
          (c = { teamId, posts: 0, reservations: 0, settled: 0, refunded: 0, open: 0, findings: 0 }),
        );
      return c;
    };
    const now = Date.parse(options.now);

    for (const r of this.reservations.values()) {
      if (!wanted(r.teamId)) continue;
      this.checkReservation(
        r,
        team(r.teamId),
        { now, maxOpenMinutes: options.maxOpenMinutes },
        { findings, open },
      );
    }

    for (const post of this.posts.values()) {
      if (!wanted(post.teamId)) continue;
      team(post.teamId).posts += 1;
      for (const version of post.versions.values()) this.checkVersion(post, version, findings);
    }
    this.checkDuplicateLinks(findings, wanted);

    const rank = (f: ChargeFinding) => CHARGE_RULES.indexOf(f.rule);
    const first = (f: ChargeFinding) => (f.events.length ? Math.min(...f.events.map((e) => e.position)) : -1);
    findings.sort((a, b) => byId(a.teamId, b.teamId) || rank(a) - rank(b) || first(a) - first(b));
    for (const f of findings) team(f.teamId).findings += 1;
    open.sort((a, b) => byId(a.teamId, b.teamId) || a.position - b.position);
    return {
      asOf: options.now,
      maxOpenMinutes: options.maxOpenMinutes,
      teams: [...counts.values()].sort((a, b) => byId(a.teamId, b.teamId)),
      open,
      findings,
    };
  }

  /** One reservation: counted, each settle and refund weighed against its posts, and aged while open. */
  private checkReservation(
    r: Reservation,
    c: TeamCharges,
    clock: { now: number; maxOpenMinutes: number },
    out: { findings: ChargeFinding[]; open: OpenReservationRow[] },
  ): void {
    c.reservations += 1;
    c.settled += r.settles.length > 0 ? 1 : 0;
    c.refunded += r.refunds.length > 0 ? 1 : 0;
    const namers = splitNamers(r, this.namers.get(r.reservationId) ?? []);
    for (const settle of r.settles) {
      const finding = settleFinding(r, settle, namers);
      if (finding) out.findings.push(finding);
    }
    for (const refund of r.refunds) {
      const finding =
        namers.own.length > 0
          ? refundWithoutOutcome(r, refund, namers)
          : refundWithoutPost(r, refund, namers.otherRefs, this.jobs);
      if (finding) out.findings.push(finding);
    }
    if (r.settles.length === 0 && r.refunds.length === 0) {
      c.open += 1;
      const row = openRow(r, namers.ownRefs, clock.now, clock.maxOpenMinutes);
      out.open.push(row);
      if (row.stale) out.findings.push(staleOpenReservation(r, row, namers.ownRefs, clock.maxOpenMinutes));
    }
  }

  /** One data version is paid for once: at most one settle, at most one live reservation. */
  private checkVersion(post: Post, version: Version, findings: ChargeFinding[]): void {
    const ref = versionRef(post, version.dataVersion);
    const held: Reservation[] = [];
    for (const reservationId of version.reservationIds) {
      const r = this.reservations.get(key(post.teamId, reservationId));
      if (!r) {
        findings.push({
          rule: 'version_without_reservation',
          teamId: post.teamId,
          posts: [ref],
          events: [],
          message: `${postText(ref)} names reservation ${reservationId}, which team ${post.teamId}'s ledger never reserved`,
        });
        continue;
      }
      if (r.refunds.length === 0) held.push(r);
    }
    const settles = held.flatMap((r) => r.settles).sort((a, b) => a.position - b.position);
    if (settles.length > 1) {
      findings.push({
        rule: 'double_charge',
        teamId: post.teamId,
        posts: [ref],
        events: settles,
        message: `${postText(ref)} was charged ${settles.length} times: ${settles.map(charge).join('; ')}`,
      });
    } else if (held.length > 1) {
      const reserved = held.map((r) => r.reserved).sort((a, b) => a.position - b.position);
      const events = [...reserved, ...settles].sort((a, b) => a.position - b.position);
      findings.push({
        rule: 'double_reservation',
        teamId: post.teamId,
        posts: [ref],
        events,
        message: `${postText(ref)} holds ${held.length} reservations (${reserved.map((e) => `${e.reservationId} at position ${e.position}`).join(', ')}); settling more than one of them charges it twice`,
      });
    }
  }

  /** The same link added twice as two posts: each charged on its own is the ten-times charge. */
  private checkDuplicateLinks(findings: ChargeFinding[], wanted: (teamId: string) => boolean): void {
    const groups = new Map<string, Post[]>();
    for (const post of this.posts.values()) {
      if (!wanted(post.teamId)) continue;
      const k = key(post.teamId, post.normalizedLink);
      groups.set(k, [...(groups.get(k) ?? []), post]);
    }
    for (const posts of groups.values()) {
      if (posts.length < 2) continue;
      const { teamId, normalizedLink } = posts[0];
      const charges = (post: Post) =>
        [...post.versions.values()]
          .flatMap((v) => [...v.reservationIds])
          .flatMap((id) => this.reservations.get(key(teamId, id))?.settles ?? [])
          .sort((a, b) => a.position - b.position);
      const events = posts.flatMap(charges).sort((a, b) => a.position - b.position);
      const each = posts.map((p) => {
        const c = charges(p);
        return `${p.postId} (${c.length ? c.map((e) => `charged through ${e.reservationId}, ${e.type} ${e.eventId} at position ${e.position}`).join('; ') : 'not charged'})`;
      });
      findings.push({
        rule: 'duplicate_post',
        teamId,
        posts: posts.map((p) => ({
          postId: p.postId,
          teamId,
          link: p.link,
          normalizedLink,
          dataVersion: null,
        })),
        events,
        message: `link ${normalizedLink} is ${posts.length} posts of team ${teamId}, charged ${events.length} times: ${each.join(', ')}`,
      });
    }
  }
}

/** The whole check over a finite log: for tests and small tools; the audit feeds as it reads. */
export function checkChargeReasons(
  records: Iterable<LedgerRecord>,
  options: ChargeCheckOptions,
): ChargeAudit {
  const auditor = new ChargeAuditor();
  for (const record of records) auditor.feed(record);
  return auditor.finish(options);
}

type Namer = { post: Post; version: Version };

/** The post versions naming a reservation: its own team's, and any other team's. */
interface ReservationNamers {
  own: Namer[];
  others: Namer[];
  ownRefs: PostVersionRef[];
  otherRefs: PostVersionRef[];
}

function splitNamers(r: Reservation, namers: Namer[]): ReservationNamers {
  const own = namers.filter((n) => n.post.teamId === r.teamId);
  const others = namers.filter((n) => n.post.teamId !== r.teamId);
  return { own, others, ownRefs: versionRefs(own), otherRefs: versionRefs(others) };
}

function versionRefs(namers: Namer[]): PostVersionRef[] {
  return namers.map((n) => versionRef(n.post, n.version.dataVersion));
}

/** A finding against reservation `r` and the settle or refund (`answer`) that closed it. */
function answeredFinding(
  rule: ChargeRule,
  r: Reservation,
  answer: LedgerEventRef,
  posts: PostVersionRef[],
  message: string,
): ChargeFinding {
  return { rule, teamId: r.teamId, posts, events: [r.reserved, answer], message };
}

/** A charge needs a post of the reservation's team whose version ended charged. */
function settleFinding(
  r: Reservation,
  settle: LedgerEventRef,
  { own, others, ownRefs, otherRefs }: ReservationNamers,
): ChargeFinding | null {
  if (own.length === 0 && others.length === 0) {
    return answeredFinding(
      'charge_without_post',
      r,
      settle,
      [],
      `${charge(settle)} names no post: no post creation or refresh names reservation ${r.reservationId}`,
    );
  }
  if (own.length === 0) {
    return answeredFinding(
      'charge_for_other_team',
      r,
      settle,
      otherRefs,
      `${charge(settle)} is for ${otherRefs.map((p) => `${postText(p)} of team ${p.teamId}`).join(', ')}, not a post of team ${r.teamId}`,
    );
  }
  if (!own.some((n) => n.version.outcomes.some(versionIsCharged))) {
    return answeredFinding(
      'charge_without_outcome',
      r,
      settle,
      ownRefs,
      `${charge(settle)} for ${ownRefs.map(postText).join(', ')}, which has ${outcomesText(own)}, not a complete outcome with comments`,
    );
  }
  return null;
}

/** A refund of a reservation its own posts name needs one of them to have ended uncharged. */
function refundWithoutOutcome(
  r: Reservation,
  refund: Refund,
  { own, ownRefs }: ReservationNamers,
): ChargeFinding | null {
  if (own.some((n) => n.version.outcomes.some((o) => !versionIsCharged(o)))) return null;
  return answeredFinding(
    'refund_without_outcome',
    r,
    refund,
    ownRefs,
    `${refundText(refund)} for ${ownRefs.map(postText).join(', ')}, which has ${outcomesText(own)}, not a failed, empty, holding, unreachable or cancelled outcome`,
  );
}

/** A refund no post of the team names is fine only for a postless reason, of a job of the same team. */
function refundWithoutPost(
  r: Reservation,
  refund: Refund,
  otherRefs: PostVersionRef[],
  jobs: ReadonlyMap<string, string>,
): ChargeFinding | null {
  const jobId = RESERVATION_OF_JOB.exec(r.reservationId)?.[1] ?? null;
  const jobTeam = jobId === null ? undefined : jobs.get(jobId);
  if (POSTLESS_REFUND_REASONS.has(refund.reason) && jobTeam === r.teamId) return null;
  const why = !POSTLESS_REFUND_REASONS.has(refund.reason)
    ? `no post names reservation ${r.reservationId}, and only a create_failed or insufficient_credits refund of a job needs none`
    : jobId === null || jobTeam === undefined
      ? `no post names reservation ${r.reservationId} and it belongs to no content job in the log`
      : `no post names reservation ${r.reservationId} and its job ${jobId} is team ${jobTeam}'s`;
  return answeredFinding('refund_without_post', r, refund, otherRefs, `${refundText(refund)}: ${why}`);
}

function openRow(
  r: Reservation,
  ownRefs: PostVersionRef[],
  now: number,
  maxOpenMinutes: number,
): OpenReservationRow {
  const ageMs = now - Date.parse(r.reserved.occurredAt);
  return {
    teamId: r.teamId,
    reservationId: r.reservationId,
    eventId: r.reserved.eventId,
    position: r.reserved.position,
    revision: r.reserved.revision,
    reservedAt: r.reserved.occurredAt,
    amount: r.amount,
    ageMinutes: Math.floor(ageMs / 60_000),
    post: ownRefs[0] ?? null,
    stale: ageMs > maxOpenMinutes * 60_000,
  };
}

function staleOpenReservation(
  r: Reservation,
  row: OpenReservationRow,
  ownRefs: PostVersionRef[],
  maxOpenMinutes: number,
): ChargeFinding {
  return {
    rule: 'stale_open_reservation',
    teamId: r.teamId,
    posts: ownRefs,
    events: [r.reserved],
    message: `reservation ${r.reservationId} (CreditsReserved ${r.reserved.eventId} at position ${r.reserved.position}, ${r.amount} credits${row.post ? ` for ${postText(row.post)}` : ''}) has been open ${row.ageMinutes} min, longer than ${maxOpenMinutes} min`,
  };
}

function versionRef(post: Post, dataVersion: number | null): PostVersionRef {
  return {
    postId: post.postId,
    teamId: post.teamId,
    link: post.link,
    normalizedLink: post.normalizedLink,
    dataVersion,
  };
}

function postText(p: PostVersionRef): string {
  return `post ${p.postId} (${p.link})${p.dataVersion === null ? '' : ` data version ${p.dataVersion}`}`;
}

function charge(e: LedgerEventRef): string {
  return `charge ${e.eventId} (CreditsSettled of reservation ${e.reservationId} at position ${e.position})`;
}

function refundText(e: LedgerEventRef & { reason: string }): string {
  return `refund ${e.eventId} (CreditsRefunded of reservation ${e.reservationId}, reason ${e.reason}, at position ${e.position})`;
}

function outcomesText(namers: { version: Version }[]): string {
  const outcomes = namers.flatMap((n) => n.version.outcomes);
  if (outcomes.length === 0) return 'no outcome yet';
  return `outcome ${outcomes.map((o) => (o.type === 'PostScored' ? `complete with ${o.data.totalComments} comments` : outcomeStatus(o))).join(', ')}`;
}
