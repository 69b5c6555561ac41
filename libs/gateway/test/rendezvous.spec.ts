import { rendezvousOrder } from '@analyst/gateway';

const replicas = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `10.0.0.${i + 1}:8080` }));
const teams = Array.from({ length: 10_000 }, (_, i) => `tm_${i.toString(36).padStart(6, '0')}`);
const firstChoice = (team: string, of: { id: string }[]) => rendezvousOrder(team, of)[0].id;

describe('rendezvous order of replicas for a team', () => {
  it('is stable: the same team gets the same replica whatever order the replicas are listed in', () => {
    const four = replicas(4);
    for (const team of teams.slice(0, 200)) {
      const order = rendezvousOrder(team, four).map((r) => r.id);
      expect(rendezvousOrder(team, [...four].reverse()).map((r) => r.id)).toEqual(order);
      expect(rendezvousOrder(team, four).map((r) => r.id)).toEqual(order);
      expect(new Set(order).size).toBe(4);
    }
    // Pinned, so a change of hash (which would move every team on a rolling gateway update) is seen.
    expect(rendezvousOrder('tm_demo', four).map((r) => r.id)).toEqual([
      '10.0.0.3:8080',
      '10.0.0.2:8080',
      '10.0.0.1:8080',
      '10.0.0.4:8080',
    ]);
  });

  it('spreads teams evenly: each of 4 replicas is first for about a quarter of 10,000 teams', () => {
    const four = replicas(4);
    const counts = new Map<string, number>();
    for (const team of teams) {
      const replica = firstChoice(team, four);
      counts.set(replica, (counts.get(replica) ?? 0) + 1);
    }
    expect(counts.size).toBe(4);
    for (const count of counts.values()) expect(Math.abs(count - 2_500)).toBeLessThan(250);
  });

  it('a replica that joins takes about 1/n of the teams, all of them from the others, and no other team moves', () => {
    const before = replicas(4);
    const after = replicas(5);
    const joined = after[4].id;
    const moved = teams.filter((team) => firstChoice(team, before) !== firstChoice(team, after));
    expect(moved.every((team) => firstChoice(team, after) === joined)).toBe(true);
    expect(moved.length / teams.length).toBeGreaterThan(0.17);
    expect(moved.length / teams.length).toBeLessThan(0.23);
  });

  it('a replica that leaves hands on only its own teams, each to its next choice', () => {
    const all = replicas(4);
    const gone = all[1].id;
    const left = all.filter((r) => r.id !== gone);
    const moved = teams.filter((team) => firstChoice(team, all) !== firstChoice(team, left));
    expect(moved).toEqual(teams.filter((team) => firstChoice(team, all) === gone));
    for (const team of moved) expect(firstChoice(team, left)).toBe(rendezvousOrder(team, all)[1].id);
    expect(moved.length / teams.length).toBeGreaterThan(0.22);
    expect(moved.length / teams.length).toBeLessThan(0.28);
  });
});
