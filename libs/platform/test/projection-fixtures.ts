import type { Doc, ReadCollection, ReadStore, RecordedEvent } from '@analyst/platform';
import type { Projector } from '../src/projection/projector';

/** Read models and events shared by the projection tests (unit and FerretDB). */

export interface PostDoc extends Doc {
  team: string;
  link: string;
  title: string;
  comments: number;
}

export interface TeamDoc extends Doc {
  posts: number;
  comments: number;
}

type Data = { postId: string; team: string; link?: string; title?: string };

/** One document per post; a unique (team, link), as the posts read model had before the claim streams. */
export const postsProjector: Projector<PostDoc> = {
  name: 'test-posts',
  collection: 'posts',
  eventTypes: ['Created', 'Titled', 'Commented'],
  indexes: [{ keys: { team: 1, link: 1 }, unique: true, name: 'team_link' }],
  documentIds: (event) => [(event.data as Data).postId],
  evolve(doc, event, id) {
    const data = event.data as Data;
    const base: PostDoc = doc ?? { _id: id, team: data.team, link: data.link ?? '', title: '', comments: 0 };
    if (event.type === 'Created') return { ...base, link: data.link!, title: data.title ?? '' };
    if (event.type === 'Titled') return { ...base, title: data.title! };
    return { ...base, comments: base.comments + 1 };
  },
};

/** One document per team fed by every post stream: the document replicas contend on most. */
export const teamsProjector: Projector<TeamDoc> = {
  name: 'test-teams',
  collection: 'teams',
  eventTypes: ['Created', 'Commented'],
  documentIds: (event) => [(event.data as Data).team],
  evolve(doc, event, id) {
    const base = doc ?? { _id: id, posts: 0, comments: 0 };
    return event.type === 'Created'
      ? { ...base, posts: base.posts + 1 }
      : { ...base, comments: base.comments + 1 };
  },
};

/** A log as a store would hand it back: positions 0.., a revision per stream. */
export class LogBuilder {
  readonly events: RecordedEvent[] = [];
  private readonly revisions = new Map<string, number>();

  add(type: string, data: Data, occurredAt = '2026-05-01T00:00:00.000Z'): this {
    const streamId = `post-${data.postId}`;
    const revision = (this.revisions.get(streamId) ?? -1) + 1;
    this.revisions.set(streamId, revision);
    const position = this.events.length;
    this.events.push({
      id: `ev-${position}`,
      type,
      schemaVersion: 1,
      data,
      metadata: { correlationId: 'c', causationId: null, teamId: data.team, occurredAt },
      streamId,
      revision,
      position,
    });
    return this;
  }
}

/** `postsPerTeam` posts in each of `teams` teams, each created, commented, retitled, commented again: a title change and comments: many streams per team document. */
export function busyLog(teams = 3, postsPerTeam = 8): RecordedEvent[] {
  const log = new LogBuilder();
  for (let p = 0; p < postsPerTeam; p++) {
    for (let t = 0; t < teams; t++) {
      const postId = `p${t}-${p}`;
      log.add('Created', { postId, team: `t${t}`, link: `https://x.test/${p}`, title: 'first' });
      log.add('Commented', { postId, team: `t${t}` });
    }
    for (let t = 0; t < teams; t++) {
      log.add('Titled', { postId: `p${t}-${p}`, team: `t${t}`, title: `title ${p}` });
      log.add('Commented', { postId: `p${t}-${p}`, team: `t${t}` });
    }
  }
  return log.events;
}

/** Every document of the collections, sorted by id: what a test compares between stores. */
export async function snapshot(store: ReadStore, collections: string[]): Promise<Record<string, Doc[]>> {
  const out: Record<string, Doc[]> = {};
  for (const name of collections) out[name] = await store.collection(name).find({}, { sort: { _id: 1 } });
  return out;
}

/**
 * A read store that fails every call while `failing` is set: an unreachable MongoDB as the
 * projection sees it.
 */
export class FlakyReadStore implements ReadStore {
  failing = false;
  calls = 0;
  /** Errors the real store raised, by class name (DuplicateKeyError for a lost race). */
  readonly errors = new Map<string, number>();

  constructor(private readonly inner: ReadStore) {}

  private check(): void {
    this.calls += 1;
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:27017');
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    const inner = this.inner.collection<T>(name);
    return new Proxy(inner, {
      get: (target, key) => {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          this.check();
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } catch (error) {
            const name = error instanceof Error ? error.name : 'unknown';
            this.errors.set(name, (this.errors.get(name) ?? 0) + 1);
            throw error;
          }
        };
      },
    });
  }

  async listCollections(): Promise<string[]> {
    this.check();
    return this.inner.listCollections();
  }

  async ping(): Promise<void> {
    this.check();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
