/** The category of a stream is its prefix: `ledger-team_1` belongs to `ledger`. */
export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash < 0 ? streamId : streamId.slice(0, dash);
}

/** Kafka topic (and in-process topic) on which a category's events are published. */
export function eventTopic(category: string): string {
  return `analyst.events.${category}`;
}

/** Topic on which a service receives commands that need a reply, keyed by team id. */
export function commandTopic(service: string): string {
  return `analyst.commands.${service}`;
}
