import { Client, type ClientConfig } from 'pg';
import { APPEND_CHANNEL } from './event-table';

/**
 * One LISTEN connection per store, opened with the first subscription: every committed append, from
 * any client of the database, wakes the subscriptions. A notification lost while the connection is
 * down is covered by the subscriptions' poll, so a failure here is reported, not fatal.
 */
export class AppendNotifications {
  private client: Client | null = null;
  private connecting: Promise<void> | null = null;

  constructor(
    private readonly config: ClientConfig,
    private readonly onAppend: () => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  listen(): Promise<void> {
    this.connecting ??= this.connect().catch((error) => {
      this.client = null;
      this.connecting = null;
      this.onError(error);
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new Client(this.config);
    client.on('notification', () => this.onAppend());
    client.on('error', (error) => {
      // Listen again on the next subscription; the poll carries the subscriptions until then.
      this.client = null;
      this.connecting = null;
      client.end().catch(() => undefined);
      this.onError(error);
    });
    this.client = client;
    await client.connect();
    await client.query(`LISTEN ${APPEND_CHANNEL}`);
  }

  async close(): Promise<void> {
    await this.connecting;
    const client = this.client;
    this.client = null;
    this.connecting = null;
    if (client) await client.end().catch(() => undefined);
  }
}
