/**
 * The prefix (`KafkaBusOptions.namespace`) of every topic and consumer group a bus touches on the
 * broker; handlers, health and metrics see the names without it.
 */
export class KafkaNamespace {
  constructor(private readonly prefix: string) {}

  /** The name on the broker. */
  scoped(name: string): string {
    return this.prefix + name;
  }

  /** The name handlers, health and metrics see. */
  unscoped(name: string): string {
    return this.prefix && name.startsWith(this.prefix) ? name.slice(this.prefix.length) : name;
  }
}
