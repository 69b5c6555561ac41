import { isPublicApiPath } from '@analyst/gateway';

describe('isPublicApiPath', () => {
  it('takes /analyst/v1, its paths and its query as public, and nothing that only starts alike', () => {
    expect(['/analyst/v1', '/analyst/v1/me', '/analyst/v1?x=1'].map(isPublicApiPath)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['/analyst/v10', '/analyst/v1x/me', '/healthz', '/admin/teams'].map(isPublicApiPath)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
