import { jsonLogLine } from './json-log-line';

/**
 * kafkajs sometimes rejects a promise nobody awaits: a metadata refresh inside a consumer or
 * producer that meets a topic being created by another replica (UNKNOWN_TOPIC_OR_PARTITION) at
 * start-up was seen to kill a ledger replica that way. Those errors are retriable, and the bus's
 * supervised consumers and resilient producer recover from them by themselves, so such a leaked
 * rejection is logged, not fatal. Any other unhandled rejection still ends the process (exit 1),
 * as Node would, so the orchestrator restarts it.
 */
export function isLeakedRetriableKafkaError(reason: unknown): boolean {
  if (!reason || typeof reason !== 'object') return false;
  const { name, retriable }: { name?: unknown; retriable?: unknown } = reason;
  return typeof name === 'string' && name.startsWith('KafkaJS') && retriable === true;
}

/** The slice of the service's pino logger the guard writes to. */
export interface CrashLogSink {
  warn(obj: object, msg?: string): void;
  fatal(obj: object, msg?: string): void;
}

/** Without the service's logger: the same shape on stderr. */
const STDERR_SINK: CrashLogSink = {
  warn: (obj, msg) => process.stderr.write(`${jsonLogLine('warn', obj, msg ?? '')}\n`),
  fatal: (obj, msg) => process.stderr.write(`${jsonLogLine('fatal', obj, msg ?? '')}\n`),
};

/** The handler the guard installs; `exit` is the process's unless a test asks otherwise. */
export function leakedRejectionHandler(
  sink: CrashLogSink = STDERR_SINK,
  exit: (code: number) => void = (code) => process.exit(code),
): (reason: unknown) => void {
  return (reason) => {
    if (isLeakedRetriableKafkaError(reason)) {
      sink.warn(
        { err: String(reason) },
        'kafkajs rejected a promise nobody awaited; retriable, the bus recovers',
      );
      return;
    }
    sink.fatal(
      { err: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason) },
      'unhandled promise rejection',
    );
    exit(1);
  };
}

export function tolerateLeakedKafkaRejections(sink?: CrashLogSink): void {
  process.on('unhandledRejection', leakedRejectionHandler(sink));
}
