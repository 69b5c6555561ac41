import { checkChargeReasons, type LedgerEventRef } from '@analyst/domain-ledger';
import { ContentLog, rid } from './content-log';

const LINK = 'https://www.youtube.com/watch?v=abc123';
const NORMAL = 'youtube.com/watch?v=abc123';

/** What a finding says about one ledger event of the planted log. */
function ref(log: ContentLog, position: number): LedgerEventRef {
  const r = log.at(position);
  return {
    reservationId: (r.data as { reservationId: string }).reservationId,
    eventId: r.id,
    type: r.type as LedgerEventRef['type'],
    position,
    revision: r.revision,
    occurredAt: r.metadata.occurredAt,
  };
}

const check = (log: ContentLog, maxOpenMinutes = 30, team?: string) =>
  checkChargeReasons(log.records, { now: log.now, maxOpenMinutes, team });

/** Every kind of ending a team's posts can have, each paid the way ingest pays it. */
function cleanLog(): ContentLog {
  const log = new ContentLog();
  const [scored, failed, empty, held, cancelled, unfunded, inFlight] = [1, 2, 3, 4, 5, 6, 7].map((n) =>
    rid('cj_1', n),
  );
  log.job('cj_1', 'team_a');
  log
    .reserve('team_a', scored)
    .created('po_1', 'team_a', LINK, 'cj_1', scored)
    .scored('po_1', 1, 'cj_1', scored, 12)
    .settle('team_a', scored);
  log
    .reserve('team_a', failed)
    .created('po_2', 'team_a', 'https://youtube.com/watch?v=f', 'cj_1', failed)
    .failed('po_2', 1, 'cj_1', failed, 'failed')
    .refund('team_a', failed, 'failed');
  log
    .reserve('team_a', empty)
    .created('po_3', 'team_a', 'https://youtube.com/watch?v=e', 'cj_1', empty)
    .scored('po_3', 1, 'cj_1', empty, 0)
    .refund('team_a', empty, 'no_comments');
  log
    .reserve('team_a', held)
    .created('po_4', 'team_a', 'https://youtube.com/watch?v=h', 'cj_1', held)
    .failed('po_4', 1, 'cj_1', held, 'holding')
    .refund('team_a', held, 'holding');
  log
    .reserve('team_a', cancelled)
    .created('po_5', 'team_a', 'https://youtube.com/watch?v=c', 'cj_1', cancelled)
    .cancelled('po_5', 1, 'cj_1', cancelled)
    .refund('team_a', cancelled, 'cancelled');
  // The post could not be created: the reservation is returned and no post ever names it.
  log.reserve('team_a', unfunded).refund('team_a', unfunded, 'create_failed');
  // A paid refresh and a free one of the scored post.
  log.job('cj_2', 'team_a');
  const refresh = rid('cj_2', 1);
  log
    .reserve('team_a', refresh)
    .refreshed('po_1', 2, 'cj_2', refresh)
    .scored('po_1', 2, 'cj_2', refresh, 15)
    .settle('team_a', refresh);
  log.refreshed('po_1', 3, 'cj_3', null).scored('po_1', 3, 'cj_3', null, 16);
  // Another team with the same link: not a duplicate of team_a's post.
  log.job('cj_9', 'team_b');
  const other = rid('cj_9', 1);
  log
    .reserve('team_b', other)
    .created('po_9', 'team_b', LINK, 'cj_9', other)
    .scored('po_9', 1, 'cj_9', other, 3)
    .settle('team_b', other);
  // Still being fetched, reserved 5 minutes before the audit.
  log
    .reserve('team_a', inFlight)
    .created('po_7', 'team_a', 'https://youtube.com/watch?v=i', 'cj_1', inFlight)
    .advance(5);
  return log;
}

describe('checkChargeReasons: every charge has a reason in the content log', () => {
  it('a held version fetched again under a fresh reservation: the hold refunded, the resumption settled, no finding', () => {
    const log = new ContentLog();
    const [hold, resume] = [1, 2].map((n) => rid('cj_1', n));
    log.job('cj_1', 'team_a');
    log
      .reserve('team_a', hold)
      .created('po_1', 'team_a', LINK, 'cj_1', hold)
      .failed('po_1', 1, 'cj_1', hold, 'holding')
      .refund('team_a', hold, 'holding');
    log.reserve('team_a', resume).resumed('po_1', 1, 'cj_1', resume);
    // While the resumed fetch runs, its reservation is open and named by the post.
    expect(check(log).open.map((o) => [o.reservationId, o.post?.postId, o.post?.dataVersion])).toEqual([
      [resume, 'po_1', 1],
    ]);
    log.scored('po_1', 1, 'cj_1', resume, 4).settle('team_a', resume);
    const audit = check(log);
    expect(audit.findings).toEqual([]);
    expect(audit.teams).toEqual([
      { teamId: 'team_a', posts: 1, reservations: 2, settled: 1, refunded: 1, open: 0, findings: 0 },
    ]);
  });

  it('passes a clean log and lists the young open reservation with its age and post', () => {
    const log = cleanLog();
    const audit = check(log);
    expect(audit.findings).toEqual([]);
    const [reserved] = log.positions('CreditsReserved', rid('cj_1', 7));
    expect(audit.open).toEqual([
      {
        teamId: 'team_a',
        reservationId: rid('cj_1', 7),
        eventId: log.at(reserved).id,
        position: reserved,
        revision: log.at(reserved).revision,
        reservedAt: '2026-03-10T12:00:00.000Z',
        amount: 1,
        ageMinutes: 5,
        post: {
          postId: 'po_7',
          teamId: 'team_a',
          link: 'https://youtube.com/watch?v=i',
          normalizedLink: 'youtube.com/watch?v=i',
          dataVersion: 1,
        },
        stale: false,
      },
    ]);
    expect(audit.teams).toEqual([
      { teamId: 'team_a', posts: 6, reservations: 8, settled: 2, refunded: 5, open: 1, findings: 0 },
      { teamId: 'team_b', posts: 1, reservations: 1, settled: 1, refunded: 0, open: 0, findings: 0 },
    ]);
    expect(audit).toMatchObject({ asOf: '2026-03-10T12:05:00.000Z', maxOpenMinutes: 30 });
  });

  it('fails one post data version settled twice through two reservations, naming the team, the post and both charges', () => {
    const log = new ContentLog();
    const [first, second] = [rid('cj_1', 1), rid('cj_2', 1)];
    log.job('cj_1', 'team_a').job('cj_2', 'team_a');
    // A duplicated creation (a second request writing the same post again) names a second reservation for v1.
    log.reserve('team_a', first).created('po_1', 'team_a', LINK, 'cj_1', first);
    log.reserve('team_a', second).created('po_1', 'team_a', LINK, 'cj_2', second);
    log.scored('po_1', 1, 'cj_1', first, 12).settle('team_a', first);
    log.scored('po_1', 1, 'cj_2', second, 12).settle('team_a', second);
    const [s1] = log.positions('CreditsSettled', first);
    const [s2] = log.positions('CreditsSettled', second);
    const audit = check(log);
    expect(audit.findings).toEqual([
      {
        rule: 'double_charge',
        teamId: 'team_a',
        posts: [{ postId: 'po_1', teamId: 'team_a', link: LINK, normalizedLink: NORMAL, dataVersion: 1 }],
        events: [ref(log, s1), ref(log, s2)],
        message:
          `post po_1 (${LINK}) data version 1 was charged 2 times: ` +
          `charge ${log.at(s1).id} (CreditsSettled of reservation ${first} at position ${s1}); ` +
          `charge ${log.at(s2).id} (CreditsSettled of reservation ${second} at position ${s2})`,
      },
    ]);
    expect(audit.teams[0]).toMatchObject({ teamId: 'team_a', settled: 2, findings: 1 });
  });

  it('fails one reservation settled twice (two command ids) as a double charge of its version', () => {
    const log = new ContentLog();
    const r = rid('cj_1', 1);
    log
      .job('cj_1', 'team_a')
      .reserve('team_a', r)
      .created('po_1', 'team_a', LINK, 'cj_1', r)
      .scored('po_1', 1, 'cj_1', r, 4);
    log.settle('team_a', r, 'ev_scored').settle('team_a', r, 'ev_scored_redelivered');
    const [s1, s2] = log.positions('CreditsSettled', r);
    expect(check(log).findings).toEqual([
      expect.objectContaining({
        rule: 'double_charge',
        teamId: 'team_a',
        events: [ref(log, s1), ref(log, s2)],
        message: expect.stringContaining(`post po_1 (${LINK}) data version 1 was charged 2 times`),
      }),
    ]);
  });

  it('fails the same link created as two posts of one team, each charged, naming both posts and both charges', () => {
    const log = new ContentLog();
    const [a, b] = [rid('cj_1', 1), rid('cj_2', 1)];
    log.job('cj_1', 'team_a').job('cj_2', 'team_a');
    log.reserve('team_a', a).created('po_1', 'team_a', LINK, 'cj_1', a);
    log.reserve('team_a', b).created('po_2', 'team_a', 'https://youtube.com/watch?v=abc123', 'cj_2', b);
    log
      .scored('po_1', 1, 'cj_1', a, 7)
      .settle('team_a', a)
      .scored('po_2', 1, 'cj_2', b, 7)
      .settle('team_a', b);
    const [sa] = log.positions('CreditsSettled', a);
    const [sb] = log.positions('CreditsSettled', b);
    expect(check(log).findings).toEqual([
      {
        rule: 'duplicate_post',
        teamId: 'team_a',
        posts: [
          { postId: 'po_1', teamId: 'team_a', link: LINK, normalizedLink: NORMAL, dataVersion: null },
          {
            postId: 'po_2',
            teamId: 'team_a',
            link: 'https://youtube.com/watch?v=abc123',
            normalizedLink: NORMAL,
            dataVersion: null,
          },
        ],
        events: [ref(log, sa), ref(log, sb)],
        message:
          `link ${NORMAL} is 2 posts of team team_a, charged 2 times: ` +
          `po_1 (charged through ${a}, CreditsSettled ${log.at(sa).id} at position ${sa}), ` +
          `po_2 (charged through ${b}, CreditsSettled ${log.at(sb).id} at position ${sb})`,
      },
    ]);
  });

  it('flags a refund whose version has no failing outcome, and a post-less refund that is not create_failed or unfunded', () => {
    const log = new ContentLog();
    const [scored, loose] = [rid('cj_1', 1), rid('cj_1', 2)];
    log.job('cj_1', 'team_a');
    log
      .reserve('team_a', scored)
      .created('po_1', 'team_a', LINK, 'cj_1', scored)
      .scored('po_1', 1, 'cj_1', scored, 9)
      .refund('team_a', scored, 'failed');
    log.reserve('team_a', loose).refund('team_a', loose, 'failed');
    const [f1] = log.positions('CreditsRefunded', scored);
    const [f2] = log.positions('CreditsRefunded', loose);
    const audit = check(log);
    expect(audit.findings.map((f) => [f.rule, f.events.map((e) => e.position)])).toEqual([
      ['refund_without_outcome', [log.positions('CreditsReserved', scored)[0], f1]],
      ['refund_without_post', [log.positions('CreditsReserved', loose)[0], f2]],
    ]);
    expect(audit.findings[0].message).toBe(
      `refund ${log.at(f1).id} (CreditsRefunded of reservation ${scored}, reason failed, at position ${f1}) for post po_1 (${LINK}) data version 1, which has outcome complete with 9 comments, not a failed, empty, holding, unreachable or cancelled outcome`,
    );
    expect(audit.findings[1].message).toBe(
      `refund ${log.at(f2).id} (CreditsRefunded of reservation ${loose}, reason failed, at position ${f2}): no post names reservation ${loose}, and only a create_failed or insufficient_credits refund of a job needs none`,
    );
  });

  it('a create_failed refund needs a content job of the same team', () => {
    const log = new ContentLog();
    log.job('cj_b', 'team_b');
    const theirs = rid('cj_b', 1);
    log.reserve('team_a', theirs).refund('team_a', theirs, 'create_failed');
    log.reserve('team_a', 'res_manual').refund('team_a', 'res_manual', 'insufficient_credits');
    expect(check(log).findings.map((f) => f.message.split(': ')[1])).toEqual([
      `no post names reservation ${theirs} and its job cj_b is team team_b's`,
      'no post names reservation res_manual and it belongs to no content job in the log',
    ]);
  });

  it('lists an open reservation older than --max-open-minutes as a violation, a younger one only as open', () => {
    const log = new ContentLog();
    const [old, young] = [rid('cj_1', 1), rid('cj_1', 2)];
    log.job('cj_1', 'team_a').reserve('team_a', old).created('po_1', 'team_a', LINK, 'cj_1', old);
    log.advance(20).reserve('team_a', young).advance(25);
    const [r1] = log.positions('CreditsReserved', old);
    const audit = check(log, 30);
    expect(audit.open.map((o) => [o.reservationId, o.ageMinutes, o.stale, o.post?.postId ?? null])).toEqual([
      [old, 45, true, 'po_1'],
      [young, 25, false, null],
    ]);
    expect(audit.findings).toEqual([
      {
        rule: 'stale_open_reservation',
        teamId: 'team_a',
        posts: [{ postId: 'po_1', teamId: 'team_a', link: LINK, normalizedLink: NORMAL, dataVersion: 1 }],
        events: [ref(log, r1)],
        message: `reservation ${old} (CreditsReserved ${log.at(r1).id} at position ${r1}, 1 credits for post po_1 (${LINK}) data version 1) has been open 45 min, longer than 30 min`,
      },
    ]);
    expect(check(log, 60).findings).toEqual([]);
  });

  it("flags a charge with no post, a charge for another team's post, a charge before any outcome, an unpaid version and a double reservation", () => {
    const log = new ContentLog();
    const [orphan, foreign, early, twiceA, twiceB] = [1, 2, 3, 4, 5].map((n) => rid('cj_1', n));
    log.job('cj_1', 'team_a');
    log.reserve('team_a', orphan).settle('team_a', orphan);
    log
      .reserve('team_a', foreign)
      .created('po_b', 'team_b', 'https://youtube.com/watch?v=b', 'cj_1', foreign)
      .scored('po_b', 1, 'cj_1', foreign, 2)
      .settle('team_a', foreign);
    log.reserve('team_a', early).created('po_1', 'team_a', LINK, 'cj_1', early).settle('team_a', early);
    log.created('po_2', 'team_a', 'https://youtube.com/watch?v=free', 'cj_1', rid('cj_1', 99));
    log.reserve('team_a', twiceA).created('po_3', 'team_a', 'https://youtube.com/watch?v=t', 'cj_1', twiceA);
    log.reserve('team_a', twiceB).refreshed('po_3', 1, 'cj_1', twiceB);
    const audit = check(log, 30, 'team_a');
    expect(audit.findings.map((f) => [f.rule, f.posts.map((p) => p.postId)])).toEqual([
      ['charge_without_post', []],
      ['charge_for_other_team', ['po_b']],
      ['charge_without_outcome', ['po_1']],
      ['double_reservation', ['po_3']],
      ['version_without_reservation', ['po_2']],
    ]);
    expect(audit.findings[1].message).toContain(
      `is for post po_b (https://youtube.com/watch?v=b) data version 1 of team team_b, not a post of team team_a`,
    );
    expect(audit.findings[2].message).toContain(
      'which has no outcome yet, not a complete outcome with comments',
    );
    expect(audit.findings[3].message).toContain(
      `holds 2 reservations (${twiceA} at position ${log.positions('CreditsReserved', twiceA)[0]}, ${twiceB} at position`,
    );
    expect(audit.findings[4].message).toBe(
      `post po_2 (https://youtube.com/watch?v=free) data version 1 names reservation ${rid('cj_1', 99)}, which team team_a's ledger never reserved`,
    );
    // team_b's post is indexed (to name it above) but team_b is not reported.
    expect(audit.teams.map((t) => t.teamId)).toEqual(['team_a']);
  });
});
