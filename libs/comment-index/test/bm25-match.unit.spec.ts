import { bm25Match, Bm25SearchModel, stems } from '../src';

const docs = (texts: string[]) => texts.map((text) => ({ text, relevance: NaN }));

describe('bm25Match (the lexical half of the AI search)', () => {
  it('is near 1 with every query stem (less for a longer comment), less with some, 0 with none', () => {
    const texts = [
      'the battery died fast',
      'battery is ok',
      'dies so fast',
      'nice colour',
      'nice colour too',
      'meh',
    ];
    const m = bm25Match('battery dies fast', docs(texts));
    expect(m[0]).toBeGreaterThan(0.75);
    expect(m[0]).toBe(Math.max(...m));
    expect(m[1]).toBeGreaterThan(0.2);
    expect(m[1]).toBeLessThan(0.7);
    expect(m[2]).toBeGreaterThan(0.4);
    expect(m[2]).toBeLessThan(1);
    expect([m[3], m[4], m[5]]).toEqual([0, 0, 0]);
    // The same comments with the full match left out: the partial matches keep their scores' order.
    const without = bm25Match('battery dies fast', docs(texts.slice(1)));
    expect(without[0]).toBeLessThan(without[1]);
  });

  it('matches stems, not spellings: "charging" finds "charge"', () => {
    expect(stems('Charging chargers!')).toEqual(['charg', 'charger']);
    expect(Array.from(bm25Match('charging', docs(['charge it', 'nope', 'nada'])))).toEqual([1, 0, 0]);
  });

  it('has no synonym table: "too expensive" does not find "price" by keyword', async () => {
    const r = await new Bm25SearchModel().relevance(
      'too expensive',
      docs(['the price is high', 'expensive!']),
    );
    expect(Array.from(r)).toEqual([0, 0.9]);
  });
});
