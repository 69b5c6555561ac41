import type { Command, Decider } from '@analyst/eventsourcing';
import { createHash } from 'node:crypto';

/**
 * One post per (team, normalized link), decided by the event store: the claim stream of a link is
 * appended with the revision its claimer read, so of two replicas racing for one link exactly one
 * appends `PostLinkClaimed`; the other reloads, sees the winner's post and reports it as skipped.
 * A claim whose post was never created (unfunded, create failed) is released, and the link can be
 * claimed again.
 */
export interface PostLinkClaimed {
  type: 'PostLinkClaimed';
  data: { teamId: string; normalizedLink: string; postId: string; jobId: string; at: string };
}
export interface PostLinkReleased {
  type: 'PostLinkReleased';
  data: { postId: string; jobId: string; reason: 'insufficient_credits' | 'create_failed'; at: string };
}
export type LinkClaimEvent = PostLinkClaimed | PostLinkReleased;

export type LinkClaimState = { status: 'free' } | { status: 'claimed'; postId: string; jobId: string };

export type LinkClaimCommand =
  | Command<
      'ClaimLink',
      { teamId: string; normalizedLink: string; postId: string; jobId: string; at: string }
    >
  | Command<
      'ReleaseLink',
      { postId: string; jobId: string; reason: PostLinkReleased['data']['reason']; at: string }
    >;

/** Hashed, so any link (length, characters) makes a valid stream id; the link itself is in the event. */
export function linkClaimStream(teamId: string, normalizedLink: string): string {
  return `postlink-${teamId}-${createHash('sha256').update(normalizedLink).digest('hex').slice(0, 32)}`;
}

export function decideLinkClaim(command: LinkClaimCommand, state: LinkClaimState): LinkClaimEvent[] {
  switch (command.type) {
    case 'ClaimLink':
      // Held already (by this job, resuming, or by another): nothing to write; the state names the holder.
      if (state.status === 'claimed') return [];
      return [
        {
          type: 'PostLinkClaimed',
          data: {
            teamId: command.data.teamId,
            normalizedLink: command.data.normalizedLink,
            postId: command.data.postId,
            jobId: command.data.jobId,
            at: command.data.at,
          },
        },
      ];
    case 'ReleaseLink':
      if (state.status !== 'claimed' || state.postId !== command.data.postId) return [];
      return [
        {
          type: 'PostLinkReleased',
          data: {
            postId: command.data.postId,
            jobId: command.data.jobId,
            reason: command.data.reason,
            at: command.data.at,
          },
        },
      ];
    default: {
      const _never: never = command;
      return _never;
    }
  }
}

export function evolveLinkClaim(_state: LinkClaimState, event: LinkClaimEvent): LinkClaimState {
  switch (event.type) {
    case 'PostLinkClaimed':
      return { status: 'claimed', postId: event.data.postId, jobId: event.data.jobId };
    case 'PostLinkReleased':
      return { status: 'free' };
    default: {
      const _never: never = event;
      return _never;
    }
  }
}

export const linkClaimDecider: Decider<LinkClaimCommand, LinkClaimEvent, LinkClaimState> = {
  initialState: (): LinkClaimState => ({ status: 'free' }),
  decide: decideLinkClaim,
  evolve: evolveLinkClaim,
};
