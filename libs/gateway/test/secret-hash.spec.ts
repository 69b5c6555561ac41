import { hashSecret, keySecretMatches, secretMatches } from '../src/identity/secret-hash';

describe('key secrets', () => {
  const secret = 'k9XcVb2mNq7LpR4sT8wYz1aD';

  it('hashes with SHA-256 as hex and matches only the exact secret', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(secretMatches(secret, hashSecret(secret))).toBe(true);
    expect(secretMatches(`${secret}x`, hashSecret(secret))).toBe(false);
  });

  it('remembers a verified secret per key document, and refuses anything else on that document', () => {
    const key = { secretHash: hashSecret(secret) };
    expect(keySecretMatches(key, secret)).toBe(true);
    expect(keySecretMatches(key, secret)).toBe(true); // from the remembered match
    const sameLength = `${secret.slice(0, -1)}Q`;
    expect(keySecretMatches(key, sameLength)).toBe(false);
    expect(keySecretMatches(key, '')).toBe(false);
    expect(keySecretMatches(key, secret)).toBe(true);
  });

  it('verifies a rotated key (a new document) afresh: the old secret no longer passes', () => {
    const before = { secretHash: hashSecret(secret) };
    expect(keySecretMatches(before, secret)).toBe(true);
    const rotated = { secretHash: hashSecret('n3wS3cr3tAfterRotation000') };
    expect(keySecretMatches(rotated, secret)).toBe(false);
    expect(keySecretMatches(rotated, 'n3wS3cr3tAfterRotation000')).toBe(true);
  });
});
