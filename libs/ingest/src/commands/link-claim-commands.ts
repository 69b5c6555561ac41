import { Injectable } from '@nestjs/common';
import {
  linkClaimDecider,
  linkClaimStream,
  type LinkClaimCommand,
  type LinkClaimEvent,
  type LinkClaimState,
} from '@analyst/domain-content';
import { CommandHandler, CommandRunner } from '@analyst/platform';

/** Names one link's claim stream: one post per normalized link and team. */
export interface LinkClaimKey {
  teamId: string;
  normalizedLink: string;
}

/** A link's claim stream, keyed by team and normalized link, bound to the link claim decider. */
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
}
