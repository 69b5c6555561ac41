/** Murmur3's finaliser: every input bit reaches every output bit. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The replica's weight for `key`: 53 bits from two FNV-1a lanes over both strings, each mixed, the
 * same on every gateway and release (changing it would move every team at once). A few hundred
 * nanoseconds, where a SHA-256 per replica cost microseconds on every forward.
 */
function weight(key: string, id: string): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  const text = `${key}\u0000${id}`;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  const high = mix(a ^ Math.imul(b, 0x27d4eb2d));
  const low = mix(b ^ high);
  return (high & 0x1fffff) * 0x1_0000_0000 + low;
}

/**
 * Rendezvous (highest-random-weight) order of `replicas` for `key`: the first is the key's replica,
 * the rest are where it goes when those before are down. Adding or removing a replica moves only
 * the keys whose first choice it is or becomes (about 1/n of them); every other key keeps its replica.
 */
export function rendezvousOrder<T extends { id: string }>(key: string, replicas: readonly T[]): T[] {
  return replicas
    .map((replica) => ({ replica, weight: weight(key, replica.id) }))
    .sort((a, b) => b.weight - a.weight || (a.replica.id < b.replica.id ? -1 : 1))
    .map((scored) => scored.replica);
}
