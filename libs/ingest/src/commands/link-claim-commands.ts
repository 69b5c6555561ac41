import { Injectable } from '@nestjs/common';
import {
  linkClaimDecider,
  linkClaimStream,
  type LinkClaimCommand,
  type LinkClaimEvent,
  type LinkClaimState,
  type PostLinkReleased,
} from '@analyst/domain-content';
import { CommandHandler, CommandRunner, type CommandContext } from '@analyst/platform';

/** Names one link's claim stream: one post per normalized link and team. */
export interface LinkClaimKey {
  teamId: string;
  normalizedLink: string;
}

/** Who holds a claimed link: the post it is (or will be) and the job that claimed it. */
export type LinkClaimHolder = Extract<LinkClaimState, { status: 'claimed' }>;

/**
 * A link's claim stream, keyed by team and normalized link, bound to the link claim decider: the
 * claim makes a post unique across replicas (of two requests racing for one link, one appends).
 */
@Injectable()
export class LinkClaimCommands extends CommandHandler<
  LinkClaimKey,
  LinkClaimCommand,
  LinkClaimEvent,
  LinkClaimState
> {
  constructor(runner: CommandRunner) {
    super(runner, {
      decider: linkClaimDecider,
      streamOf: (key) => linkClaimStream(key.teamId, key.normalizedLink),
    });
  }

  /**
   * Claims the link for a new post of `jobId`. Its holder (this job, or the job that claimed it
   * first, whose post it then is) and the position written (-1 when the link was held already).
   */
  async claim(
    key: LinkClaimKey,
    claim: { postId: string; jobId: string; at: string },
    ctx: CommandContext,
  ): Promise<{ holder: LinkClaimHolder; position: number }> {
    const { state, position } = await this.handle(
      key,
      { type: 'ClaimLink', data: { teamId: key.teamId, normalizedLink: key.normalizedLink, ...claim } },
      ctx,
    );
    if (state.status !== 'claimed') throw new Error('a link claim was decided but the stream holds none');
    return { holder: state, position };
  }

  /** Gives the link back: its post was not created (unfunded, or the create failed). */
  release(
    key: LinkClaimKey,
    release: { postId: string; jobId: string; reason: PostLinkReleased['data']['reason']; at: string },
    ctx: CommandContext,
  ) {
    return this.handle(key, { type: 'ReleaseLink', data: release }, ctx);
  }
}
