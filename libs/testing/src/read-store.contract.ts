import { DuplicateKeyError, type Doc, type ReadCollection, type ReadStore } from '@analyst/platform';
import { unique } from './unique';

export interface ReadStoreFixture {
  store: ReadStore;
  teardown?: () => Promise<void>;
}

interface PostDoc extends Doc {
  team: string;
  createdAt: string;
  score?: number;
  tags?: string[];
  stats?: { views: number };
  note?: string;
}

function post(i: number, extra: Partial<PostDoc> = {}): PostDoc {
  return {
    _id: `p${String(i).padStart(3, '0')}`,
    team: i % 2 === 0 ? 'even' : 'odd',
    // Several posts share a timestamp, so paging must break ties on _id.
    createdAt: `2026-01-${String(1 + Math.floor(i / 3)).padStart(2, '0')}T00:00:00.000Z`,
    score: i,
    tags: [`t${i % 3}`],
    stats: { views: i * 10 },
    ...extra,
  };
}

/** Behaviour every ReadStore adapter must share, in the MongoDB query language. */
export function readStoreContract(name: string, setup: () => Promise<ReadStoreFixture>): void {
  describe(`ReadStore contract: ${name}`, () => {
    let fixture: ReadStoreFixture;
    let posts: ReadCollection<PostDoc>;

    beforeEach(async () => {
      fixture = await setup();
      posts = fixture.store.collection<PostDoc>(unique('posts_'));
    });
    afterEach(async () => {
      await posts.drop();
      await fixture.store.close();
      await fixture.teardown?.();
    });

    async function seed(n: number): Promise<void> {
      for (let i = 0; i < n; i++) await posts.insertOne(post(i));
    }

    it('finds with operators, dotted paths and arrays, and counts', async () => {
      await seed(10);
      expect((await posts.find({ team: 'even', score: { $gte: 4 } })).map((d) => d._id).sort()).toEqual([
        'p004',
        'p006',
        'p008',
      ]);
      expect((await posts.find({ 'stats.views': { $lt: 25 } })).map((d) => d._id).sort()).toEqual([
        'p000',
        'p001',
        'p002',
      ]);
      expect(await posts.count({ tags: 't1' })).toBe(3);
      expect(await posts.count({ $or: [{ score: 1 }, { score: { $in: [7, 8] } }] })).toBe(3);
      expect(await posts.count({ note: { $exists: true } })).toBe(0);
      expect(await posts.count()).toBe(10);
      expect(await posts.findOne({ _id: 'p003' })).toMatchObject({ team: 'odd', score: 3 });
      expect(await posts.findOne({ _id: 'nope' })).toBeNull();
      expect((await posts.find({ _id: { $in: ['p001', 'p003', 'zzz'] } })).map((d) => d._id).sort()).toEqual([
        'p001',
        'p003',
      ]);
      expect(await posts.count({ _id: 'p002', team: 'odd' })).toBe(0);
      // `_id` beside other fields: looked up by `_id`, then matched on the rest.
      const odd = await posts.find({ team: 'odd', _id: { $in: ['p001', 'p002', 'p003', 'zzz'] } });
      expect(odd.map((d) => d._id).sort()).toEqual(['p001', 'p003']);
      expect(await posts.count({ _id: { $in: ['p001', 'p003'] }, score: { $gt: 1 } })).toBe(1);
    });

    it('sorts, skips, limits and projects', async () => {
      await seed(10);
      const top = await posts.find({}, { sort: { score: -1 }, limit: 3 });
      expect(top.map((d) => d.score)).toEqual([9, 8, 7]);
      const skipped = await posts.find({ team: 'odd' }, { sort: { score: 1 }, skip: 1, limit: 2 });
      expect(skipped.map((d) => d.score)).toEqual([3, 5]);
      const projected = await posts.find({ _id: 'p002' }, { projection: { score: 1 } });
      expect(projected).toEqual([{ _id: 'p002', score: 2 }]);
    });

    it('projects dotted paths in and out, leaving the stored document whole', async () => {
      const nested = fixture.store.collection<Doc>(unique('nested_'));
      await nested.insertOne({
        _id: 'n1',
        team: 't',
        analysis: { version: 2, metrics: { totals: { comments: 3 }, daily: [{ day: 'a' }, { day: 'b' }] } },
      });
      expect(await nested.findOne({ _id: 'n1' }, { projection: { 'analysis.metrics.daily': 0 } })).toEqual({
        _id: 'n1',
        team: 't',
        analysis: { version: 2, metrics: { totals: { comments: 3 } } },
      });
      expect(
        await nested.find(
          { team: 't', _id: { $in: ['n1'] } },
          { projection: { 'analysis.metrics.daily': 1 } },
        ),
      ).toEqual([{ _id: 'n1', analysis: { metrics: { daily: [{ day: 'a' }, { day: 'b' }] } } }]);
      expect(await nested.findOne({ _id: 'n1' }, { projection: { 'analysis.absent.path': 0 } })).toEqual({
        _id: 'n1',
        team: 't',
        analysis: { version: 2, metrics: { totals: { comments: 3 }, daily: [{ day: 'a' }, { day: 'b' }] } },
      });
      expect((await nested.findOne({ _id: 'n1' }))!.analysis).toEqual({
        version: 2,
        metrics: { totals: { comments: 3 }, daily: [{ day: 'a' }, { day: 'b' }] },
      });
    });

    it('pages with sort, limit and a keyset cursor without gaps or repeats', async () => {
      await seed(25);
      const seen: string[] = [];
      let cursor: { createdAt: string; _id: string } | null = null;
      for (let page = 0; page < 10; page++) {
        const filter: Record<string, unknown> = cursor
          ? {
              $or: [
                { createdAt: { $lt: cursor.createdAt } },
                { createdAt: cursor.createdAt, _id: { $lt: cursor._id } },
              ],
            }
          : {};
        const rows = await posts.find(filter, { sort: { createdAt: -1, _id: -1 }, limit: 4 });
        if (rows.length === 0) break;
        seen.push(...rows.map((r) => r._id));
        const last: PostDoc = rows[rows.length - 1];
        cursor = { createdAt: last.createdAt, _id: last._id };
      }
      const expected = Array.from({ length: 25 }, (_, i) => post(i))
        .sort((a, b) =>
          a.createdAt === b.createdAt ? b._id.localeCompare(a._id) : b.createdAt.localeCompare(a.createdAt),
        )
        .map((p) => p._id);
      expect(seen).toEqual(expected);
    });

    it('updates with $set, $inc, $push and $unset', async () => {
      await seed(2);
      const result = await posts.updateOne(
        { _id: 'p001' },
        { $set: { note: 'hi', 'stats.views': 99 }, $inc: { score: 5 }, $push: { tags: 'new' } },
      );
      expect(result).toMatchObject({ matched: 1, modified: 1 });
      expect(await posts.findOne({ _id: 'p001' })).toMatchObject({
        note: 'hi',
        score: 6,
        tags: ['t1', 'new'],
        stats: { views: 99 },
      });
      await posts.updateOne({ _id: 'p001' }, { $unset: { note: '' } });
      expect((await posts.findOne({ _id: 'p001' }))!.note).toBeUndefined();
      const none = await posts.updateOne({ _id: 'missing' }, { $set: { note: 'x' } });
      expect(none).toMatchObject({ matched: 0, upsertedId: null });
      expect(await posts.count()).toBe(2);
    });

    it('upserts, applying $setOnInsert only when inserting', async () => {
      const first = await posts.updateOne(
        { _id: 'u1' },
        { $setOnInsert: { createdAt: 'first', team: 't' }, $inc: { score: 1 } },
        { upsert: true },
      );
      expect(first.upsertedId).toBe('u1');
      const second = await posts.updateOne(
        { _id: 'u1' },
        { $setOnInsert: { createdAt: 'second' }, $inc: { score: 1 } },
        { upsert: true },
      );
      expect(second).toMatchObject({ matched: 1, upsertedId: null });
      expect(await posts.findOne({ _id: 'u1' })).toMatchObject({ createdAt: 'first', team: 't', score: 2 });
    });

    it('updates many, replaces and deletes', async () => {
      await seed(6);
      const many = await posts.updateMany({ team: 'even' }, { $set: { note: 'even' } });
      expect(many.matched).toBe(3);
      expect(await posts.count({ note: 'even' })).toBe(3);
      await posts.replaceOne({ _id: 'p000' }, { _id: 'p000', team: 'x', createdAt: 'c' });
      expect(await posts.findOne({ _id: 'p000' })).toEqual({ _id: 'p000', team: 'x', createdAt: 'c' });
      const upserted = await posts.replaceOne(
        { _id: 'p100' },
        { _id: 'p100', team: 'y', createdAt: 'c' },
        { upsert: true },
      );
      expect(upserted.upsertedId).toBe('p100');
      expect(await posts.deleteMany({ team: 'odd' })).toBe(3);
      expect(await posts.count()).toBe(4);
    });

    it('enforces unique indexes (single and compound) and writes nothing on a clash', async () => {
      await posts.createIndex({ keys: { team: 1, score: 1 }, unique: true, name: 'team_score' });
      await posts.createIndex({ keys: { createdAt: -1 } });
      await posts.insertOne(post(1));
      await posts.insertOne(post(2));
      const clash = await posts.insertOne({ ...post(1), _id: 'other' }).catch((e) => e);
      expect(clash).toBeInstanceOf(DuplicateKeyError);
      const dupId = await posts.insertOne(post(1)).catch((e) => e);
      expect(dupId).toBeInstanceOf(DuplicateKeyError);
      const updateClash = await posts
        .updateOne({ _id: 'p002' }, { $set: { team: 'odd', score: 1 } })
        .catch((e) => e);
      expect(updateClash).toBeInstanceOf(DuplicateKeyError);
      expect(await posts.findOne({ _id: 'p002' })).toMatchObject({ team: 'even', score: 2 });
      expect(await posts.count()).toBe(2);
    });

    it('reports a write-once document inserted twice as a clash on _id, and keeps the first', async () => {
      await posts.insertOne(post(1), { idOnly: true });
      const again = await posts.insertOne({ ...post(1), score: 99 }, { idOnly: true }).catch((e) => e);
      expect(again).toBeInstanceOf(DuplicateKeyError);
      expect((again as DuplicateKeyError).index).toBe('_id');
      expect(await posts.findOne({ _id: 'p001' })).toMatchObject({ score: 1 });
      expect(await posts.count()).toBe(1);
    });

    it('drops a collection', async () => {
      await seed(3);
      await posts.drop();
      expect(await posts.count()).toBe(0);
      await posts.insertOne(post(1));
      expect(await posts.count()).toBe(1);
    });
  });
}
