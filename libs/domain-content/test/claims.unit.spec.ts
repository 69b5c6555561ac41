import {
  fingerprintClaimStream,
  idempotencyKeyClaimStream,
  linkClaimDecider,
  linkClaimStream,
  requestClaimDecider,
  type ClaimRequest,
  type LinkClaimEvent,
  type RequestClaimEvent,
} from '@analyst/domain-content';
import { DeciderSpecification } from '@analyst/eventsourcing/testing';

const AT = '2026-03-10T12:00:00.000Z';
const givenLink = (events: LinkClaimEvent[]) => DeciderSpecification.for(linkClaimDecider).given(events);
const givenRequest = (events: RequestClaimEvent[]) =>
  DeciderSpecification.for(requestClaimDecider).given(events);

const claimed = (postId: string, jobId: string): LinkClaimEvent => ({
  type: 'PostLinkClaimed',
  data: { teamId: 'tm_1', normalizedLink: 'youtube.com/watch?v=abc', postId, jobId, at: AT },
});
const claim = (postId: string, jobId: string) => ({
  type: 'ClaimLink' as const,
  data: { teamId: 'tm_1', normalizedLink: 'youtube.com/watch?v=abc', postId, jobId, at: AT },
});

describe('link claim: one post per (team, normalized link)', () => {
  it('claims a free link for the job and its post', () => {
    givenLink([])
      .when(claim('po_1', 'cj_1'))
      .then([claimed('po_1', 'cj_1')]);
  });

  describe('a held link', () => {
    const given = givenLink([claimed('po_1', 'cj_1')]);

    it('writes nothing for another job', () => {
      given.when(claim('po_2', 'cj_2')).then([]);
    });

    it('writes nothing for the holder job asking for another post', () => {
      given.when(claim('po_3', 'cj_1')).then([]);
    });

    it('has a state that names the holder, whoever asks', () => {
      expect(given.state).toEqual({ status: 'claimed', postId: 'po_1', jobId: 'cj_1' });
    });
  });

  describe('release', () => {
    const released: LinkClaimEvent = {
      type: 'PostLinkReleased',
      data: { postId: 'po_1', jobId: 'cj_1', reason: 'insufficient_credits', at: AT },
    };

    it('ignores a release by a post that does not hold the link', () => {
      givenLink([claimed('po_1', 'cj_1')])
        .when({
          type: 'ReleaseLink',
          data: { postId: 'po_9', jobId: 'cj_9', reason: 'create_failed', at: AT },
        })
        .then([]);
    });

    it('releases the link for its holder post', () => {
      givenLink([claimed('po_1', 'cj_1')])
        .when({
          type: 'ReleaseLink',
          data: { postId: 'po_1', jobId: 'cj_1', reason: 'insufficient_credits', at: AT },
        })
        .then([released]);
    });

    it('lets a released link be claimed again', () => {
      givenLink([claimed('po_1', 'cj_1'), released])
        .when(claim('po_2', 'cj_2'))
        .then([claimed('po_2', 'cj_2')]);
    });
  });

  it('names one stream per team and link, whatever the link holds', () => {
    expect(linkClaimStream('tm_1', 'a')).toBe(linkClaimStream('tm_1', 'a'));
    expect(linkClaimStream('tm_1', 'a')).not.toBe(linkClaimStream('tm_2', 'a'));
    expect(linkClaimStream('tm_1', 'x'.repeat(5000))).toMatch(/^postlink-tm_1-[0-9a-f]{32}$/);
  });
});

describe('request claim: one job per request fingerprint and per Idempotency-Key', () => {
  const request = (over: Partial<ClaimRequest['data']> = {}): ClaimRequest => ({
    type: 'ClaimRequest',
    data: {
      teamId: 'tm_1',
      jobId: 'cj_1',
      fingerprint: 'fp1',
      idempotencyKey: null,
      expiresAt: '2026-04-09T12:00:00.000Z',
      at: AT,
      ...over,
    },
  });
  const claimedBy = (over: Partial<RequestClaimEvent['data']> = {}): RequestClaimEvent => ({
    type: 'ContentRequestClaimed',
    data: {
      teamId: 'tm_1',
      jobId: 'cj_1',
      fingerprint: 'fp1',
      idempotencyKey: null,
      expiresAt: '2026-04-09T12:00:00.000Z',
      at: AT,
      ...over,
    },
  });

  it('claims a new request for its job', () => {
    givenRequest([]).when(request()).then([claimedBy()]);
  });

  it('keeps the first job while the claim lives', () => {
    givenRequest([claimedBy()])
      .when(request({ jobId: 'cj_2' }))
      .then([]);
  });

  it('lets a lapsed claim go to a new job', () => {
    const later = '2026-04-09T12:00:00.001Z';
    givenRequest([claimedBy()])
      .when(request({ jobId: 'cj_2', at: later, expiresAt: '2026-05-09T12:00:00.001Z' }))
      .then([claimedBy({ jobId: 'cj_2', at: later, expiresAt: '2026-05-09T12:00:00.001Z' })]);
  });

  it('refuses an Idempotency-Key reused with another body', () => {
    givenRequest([claimedBy({ idempotencyKey: 'k1' })])
      .when(request({ jobId: 'cj_2', fingerprint: 'fp2', idempotencyKey: 'k1' }))
      .thenFails('idempotency_key_reused');
  });

  it('keeps the first job for an Idempotency-Key reused with the same body', () => {
    givenRequest([claimedBy({ idempotencyKey: 'k1' })])
      .when(request({ jobId: 'cj_2', idempotencyKey: 'k1' }))
      .then([]);
  });

  it('keeps body and key claims apart, per team', () => {
    expect(fingerprintClaimStream('tm_1', 'k')).not.toBe(idempotencyKeyClaimStream('tm_1', 'k'));
    expect(fingerprintClaimStream('tm_1', 'k')).not.toBe(fingerprintClaimStream('tm_2', 'k'));
  });
});
