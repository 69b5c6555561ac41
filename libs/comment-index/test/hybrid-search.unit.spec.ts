import { HybridSearchModel, OWN_RELEVANCE_SHARE, semanticMatch, SEMANTIC_FLOOR, SEMANTIC_FULL } from '../src';

const unscored = (texts: string[]) => texts.map((text) => ({ text, relevance: NaN }));

describe('HybridSearchModel (the default AI search: distilled MiniLM embedding + BM25)', () => {
  const model = new HybridSearchModel();
  const comments = [
    'costs an arm and a leg',
    'not worth the money',
    'nice colour on the walls',
    'the goalkeeper saved a penalty',
    'my cat sleeps all day',
    'battery lasts all day',
    'Battery!',
  ];

  it('"too expensive" finds comments that say it in other words, above unrelated ones, at minRelevance 0.5', async () => {
    const r = await model.relevance('too expensive', unscored(comments));
    const [arm, worth, ...unrelated] = Array.from(r);
    expect(arm).toBeGreaterThanOrEqual(0.5);
    expect(worth).toBeGreaterThanOrEqual(0.5);
    // Unrelated comments score 0: the job keeps only relevance > 0, so not even minRelevance 0 matches them.
    expect(unrelated).toEqual([0, 0, 0, 0, 0]);
  });

  it('a comment with the query word matches fully (0.9 unscored: the own-score share is neutral)', async () => {
    const r = await model.relevance('battery', unscored(comments));
    expect(Array.from(r)).toEqual([0, 0, 0, 0, 0, 0.9, 0.9]);
  });

  it('a neighbouring topic is not a match: "camera is fine" scores 0 for "battery" (the floor)', async () => {
    const r = await model.relevance(
      'battery',
      unscored(['camera is fine', 'great camera', 'battery charge holds']),
    );
    expect(r[0]).toBe(0);
    expect(r[1]).toBe(0);
    expect(r[2]).toBeGreaterThan(0.7);
  });

  it('is deterministic: the same query and comments give exactly the same relevances', async () => {
    const docs = unscored([...comments, 'price is too high', 'the price is fine', 'cheap and cheerful']);
    const first = await model.relevance('too expensive battery', docs);
    const second = await new HybridSearchModel().relevance('too expensive battery', docs);
    expect(Array.from(second)).toEqual(Array.from(first));
    expect(first.some((x) => x > 0)).toBe(true);
  });

  it('a query of stopwords only, or of nothing the vocabulary knows, matches nothing', async () => {
    for (const query of ['the', 'it is what it is', '', '🔥🔥', '!!!']) {
      const r = await model.relevance(query, unscored(comments));
      expect([query, Array.from(r)]).toEqual([query, comments.map(() => 0)]);
    }
  });

  it("the comment's own relevance score moves a match by up to a fifth", async () => {
    const r = await model.relevance('battery', [
      { text: 'battery lasts', relevance: 10 },
      { text: 'battery lasts', relevance: 1 },
      { text: 'battery lasts', relevance: NaN },
      { text: 'nice colour', relevance: 10 },
    ]);
    expect(Array.from(r)).toEqual([1, 1 - OWN_RELEVANCE_SHARE, 0.9, 0]);
  });

  it('reports progress up to 1 and answers an empty selection with nothing', async () => {
    const seen: number[] = [];
    await model.relevance('too expensive', unscored(comments), (f) => seen.push(f));
    expect(seen[seen.length - 1]).toBe(1);
    expect(seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= seen[i - 1]))).toBe(true);
    expect(Array.from(await model.relevance('too expensive', []))).toEqual([]);
  });
});

describe('semanticMatch', () => {
  it('is 0 up to the floor (unrelated text), 1 from the full mark, linear between', () => {
    expect(semanticMatch(0)).toBe(0);
    expect(semanticMatch(SEMANTIC_FLOOR)).toBe(0);
    expect(semanticMatch(SEMANTIC_FULL)).toBe(1);
    expect(semanticMatch(1)).toBe(1);
    expect(semanticMatch((SEMANTIC_FLOOR + SEMANTIC_FULL) / 2)).toBeCloseTo(0.5, 12);
  });
});
