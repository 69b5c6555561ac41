import Database from 'better-sqlite3';
import type { CheckpointStore } from '@analyst/eventsourcing';

/** Checkpoints kept beside the embedded event log, so standalone subscribers resume after a restart. */
export class SqliteCheckpointStore implements CheckpointStore {
  private readonly db: Database.Database;
  private readonly get: Database.Statement<[string], { position: number }>;
  private readonly put: Database.Statement<[string, number]>;

  constructor(filename: string) {
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
    this.get = this.db.prepare('SELECT position FROM checkpoints WHERE name = ?');
    this.put = this.db.prepare(
      'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET position = MAX(position, excluded.position)',
    );
  }

  async load(name: string): Promise<number> {
    return this.get.get(name)?.position ?? -1;
  }

  async save(name: string, position: number): Promise<void> {
    this.put.run(name, position);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
