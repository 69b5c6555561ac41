/** What `analyst --json` prints on stderr when a command fails. */
export interface CliErrorBody {
  error: {
    /** HTTP status of a failed admin call; null for errors that never reached a server. */
    status: number | null;
    /** The server's `error.code`; `invalid_argument` for a usage error; `no_admin_token`, `unreachable`; else `cli_error`. */
    code: string;
    message: string;
  };
}

/** Turns anything a command threw into the JSON error body (admin, commander and plain errors alike). */
export function cliErrorBody(error: unknown): CliErrorBody {
  if (error instanceof Error) {
    const { status, code } = error as Error & { status?: unknown; code?: unknown };
    // Commander's own refusals (unknown option, missing argument, ...) are usage errors.
    const usage = error.name === 'CommanderError';
    return {
      error: {
        status: typeof status === 'number' ? status : null,
        code: usage ? 'invalid_argument' : typeof code === 'string' && code !== '' ? code : 'cli_error',
        message: error.message.replace(/^error: /, ''),
      },
    };
  }
  return { error: { status: null, code: 'cli_error', message: String(error) } };
}

/**
 * Reports a failed command: a JSON object on stderr with `--json`, its message otherwise. Returns
 * the exit code (commander's own, e.g. 0 after `--help`, otherwise 1).
 */
export function reportCliError(
  error: unknown,
  json: boolean,
  write: (text: string) => void = (text) => process.stderr.write(`${text}\n`),
): number {
  const exitCode = (error as { exitCode?: unknown } | null)?.exitCode;
  const isCommander = (error as { name?: unknown } | null)?.name === 'CommanderError';
  if (isCommander && exitCode === 0) return 0;
  if (json) write(JSON.stringify(cliErrorBody(error)));
  // Commander has already printed its own message when not in JSON mode.
  else if (!isCommander) write(error instanceof Error ? error.message : String(error));
  return typeof exitCode === 'number' && exitCode !== 0 ? exitCode : 1;
}
