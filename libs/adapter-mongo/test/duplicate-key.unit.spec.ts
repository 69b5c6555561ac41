import { UNKNOWN_INDEX } from '@analyst/eventsourcing';
import { duplicateKeyIndex } from '../src/duplicate-key';

describe('duplicateKeyIndex: which unique index a driver error reports a clash on', () => {
  it('reads the index MongoDB names in its E11000 message, _id_ as _id', () => {
    const message = (index: string) =>
      `E11000 duplicate key error collection: analyst.posts index: ${index} dup key: { teamId: "t1" }`;
    expect(duplicateKeyIndex({ code: 11000, message: message('team_link') })).toBe('team_link');
    expect(duplicateKeyIndex({ code: 11001, message: message('_id_') })).toBe('_id');
    expect(duplicateKeyIndex({ codeName: 'DuplicateKey', message: message('by_name') })).toBe('by_name');
    expect(duplicateKeyIndex({ errorResponse: { code: 12582, errmsg: message('from_response') } })).toBe(
      'from_response',
    );
  });

  it('falls back on the key pattern for _id, and on UNKNOWN_INDEX when the server names nothing', () => {
    expect(
      duplicateKeyIndex({ code: 11000, message: 'E11000 duplicate key error', keyPattern: { _id: 1 } }),
    ).toBe('_id');
    expect(
      duplicateKeyIndex({
        code: 11000,
        message: 'E11000 duplicate key error',
        keyPattern: { teamId: 1, url: 1 },
      }),
    ).toBe(UNKNOWN_INDEX);
    expect(duplicateKeyIndex({ code: 11000, message: 'E11000 duplicate key error' })).toBe(UNKNOWN_INDEX);
  });

  it('reads the first write error of a bulk failure, flat or nested under err', () => {
    const errmsg = 'E11000 duplicate key error collection: analyst.posts index: team_link dup key: {}';
    expect(duplicateKeyIndex({ message: 'bulk write failed', writeErrors: [{ code: 11000, errmsg }] })).toBe(
      'team_link',
    );
    expect(
      duplicateKeyIndex({ message: 'bulk write failed', writeErrors: { err: { code: 11000, errmsg } } }),
    ).toBe('team_link');
  });

  it("reads FerretDB's backend messages: the index after its collection and hash, or UNKNOWN_INDEX", () => {
    expect(
      duplicateKeyIndex({ code: 1, message: "UNIQUE constraint failed: index 'posts_0123abcd_team_link'" }),
    ).toBe('team_link');
    expect(
      duplicateKeyIndex({
        message: 'duplicate key value violates unique constraint "posts_89abcdef_team_link"',
      }),
    ).toBe('team_link');
    expect(
      duplicateKeyIndex({ message: 'duplicate key value violates unique constraint "plain_name"' }),
    ).toBe('plain_name');
    expect(duplicateKeyIndex({ message: 'UNIQUE constraint failed: posts.url' })).toBe(UNKNOWN_INDEX);
  });

  it('is null for any other error and for what is not an object', () => {
    expect(duplicateKeyIndex({ code: 13, message: 'not authorized' })).toBeNull();
    expect(duplicateKeyIndex(new Error('connection reset'))).toBeNull();
    expect(duplicateKeyIndex('E11000 index: x')).toBeNull();
    expect(duplicateKeyIndex(null)).toBeNull();
  });
});
