import type { DomainEvent } from '@analyst/eventsourcing';
import { recorded } from '@analyst/testing';
import { MemoryReadStore, ProjectionRuntime, projects, type Projector } from '../src';

type Counted = DomainEvent<'Counted', { counterId: string; by: number }>;
type Renamed = DomainEvent<'Renamed', { counterId: string; name: string }>;

/** A projector typed by its union: no cast of the stored event in documentIds or evolve. */
const counters: Projector<{ _id: string; total: number; name: string | null }, Counted | Renamed> = {
  name: 'counters',
  collection: 'counters',
  eventTypes: ['Counted', 'Renamed'],
  documentIds: (event) => [event.data.counterId],
  evolve(doc, event, id) {
    const current = doc ?? { _id: id, total: 0, name: null };
    return event.type === 'Counted'
      ? { ...current, total: current.total + event.data.by }
      : { ...current, name: event.data.name };
  },
};

describe('the projector boundary', () => {
  it('projects() narrows a stored event to the projector union by its listed types', () => {
    const counted = recorded<Counted>({ type: 'Counted', data: { counterId: 'c1', by: 2 } });
    const other = recorded({ type: 'Reset', data: { counterId: 'c1' } });
    expect(projects(counters, counted)).toBe(true);
    expect(projects(counters, other)).toBe(false);
  });

  it('the runtime hands a projector only the events of its types', async () => {
    const store = new MemoryReadStore();
    const runtime = new ProjectionRuntime(store, [counters]);
    const at = (revision: number) => ({ streamId: 'counter-c1', revision, position: revision + 1 });
    await runtime.apply(recorded<Counted>({ type: 'Counted', data: { counterId: 'c1', by: 2 } }, at(0)));
    await runtime.apply(recorded({ type: 'Reset', data: { counterId: 'c1' } }, at(1)));
    await runtime.apply(
      recorded<Renamed>({ type: 'Renamed', data: { counterId: 'c1', name: 'hits' } }, at(2)),
    );
    await runtime.apply(recorded<Counted>({ type: 'Counted', data: { counterId: 'c1', by: 3 } }, at(3)));
    expect(await store.collection('counters').findOne({ _id: 'c1' })).toMatchObject({
      total: 5,
      name: 'hits',
    });
  });
});
