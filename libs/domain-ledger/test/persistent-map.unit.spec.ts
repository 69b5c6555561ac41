import fc from 'fast-check';
import { PersistentMap } from '@analyst/domain-ledger';

describe('PersistentMap', () => {
  it('behaves like a copied Map at every version, even when an old version is written again', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ from: fc.nat(), key: fc.constantFrom('a', 'b', 'c', 'd'), value: fc.integer() }),
          { maxLength: 60 },
        ),
        (writes) => {
          const versions: PersistentMap<string, number>[] = [PersistentMap.empty()];
          const models: Map<string, number>[] = [new Map()];
          for (const w of writes) {
            const i = w.from % versions.length;
            versions.push(versions[i].set(w.key, w.value));
            models.push(new Map(models[i]).set(w.key, w.value));
          }
          versions.forEach((version, i) => {
            expect(new Map(version.entries())).toEqual(models[i]);
            expect(version.size).toBe(models[i].size);
          });
        },
      ),
    );
  });
});
