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
  const { name, retriable } = reason as { name?: unknown; retriable?: unknown };
  return typeof name === 'string' && name.startsWith('KafkaJS') && retriable === true;
}

export function tolerateLeakedKafkaRejections(
  log: (message: string) => void = (m) => console.error(m),
): void {
  process.on('unhandledRejection', (reason) => {
    if (isLeakedRetriableKafkaError(reason)) {
      log(
        JSON.stringify({
          level: 'WARN',
          msg: 'kafkajs rejected a promise nobody awaited; retriable, the bus recovers',
          error: String(reason),
        }),
      );
      return;
    }
    log(
      JSON.stringify({
        level: 'FATAL',
        msg: 'unhandled promise rejection',
        error: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason),
      }),
    );
    process.exit(1);
  });
}
