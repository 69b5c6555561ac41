import { Injectable } from '@nestjs/common';
import { apiKeyStream, type ApiKeyEvent } from '@analyst/contracts';
import { apiKeyDecider, type ApiKeyCommand, type ApiKeyState } from '@analyst/domain-identity';
import { CommandHandler, CommandRunner } from '@analyst/platform';

/** An API key's stream, keyed by key id, bound to the API key decider. */
@Injectable()
export class ApiKeyCommands extends CommandHandler<string, ApiKeyCommand, ApiKeyEvent, ApiKeyState> {
  constructor(runner: CommandRunner) {
    super(runner, { decider: apiKeyDecider, streamOf: apiKeyStream });
  }
}
