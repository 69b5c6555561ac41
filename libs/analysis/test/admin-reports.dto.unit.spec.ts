import { validateRequest } from '@analyst/platform';
import { SaveAnalysisBody, SaveReportBody } from '../src/reports/admin-reports.dto';

const refuse = (message: string) => new Error(message);

describe('the app backend bodies: reports and saved analyses', () => {
  it('accepts a report with its texts as sent (trimmed by the route) and any savedBy', () => {
    const body = { campaignId: ' col_1 ', title: 'Launch', summary: 'Went well', savedBy: { id: 'u1' } };
    expect(validateRequest(SaveReportBody, body, refuse)).toEqual(body);
  });

  it('refuses a missing, blank or too long text with the length it allows', () => {
    expect(() => validateRequest(SaveReportBody, { title: 't', summary: 's' }, refuse)).toThrow(
      'campaignId must be a non-empty string of at most 200 characters',
    );
    expect(() =>
      validateRequest(SaveReportBody, { campaignId: 'c', title: '   ', summary: 's' }, refuse),
    ).toThrow('title must be a non-empty string of at most 500 characters');
    expect(() => validateRequest(SaveAnalysisBody, { name: 'n', kind: 'k'.repeat(51) }, refuse)).toThrow(
      'kind must be a non-empty string of at most 50 characters',
    );
  });

  it('takes a saved analysis with only a name, and refuses a field it does not know', () => {
    expect(validateRequest(SaveAnalysisBody, { name: 'Q3', payload: { a: [1] } }, refuse)).toEqual({
      name: 'Q3',
      payload: { a: [1] },
    });
    expect(() => validateRequest(SaveAnalysisBody, { name: 'Q3', colour: 'red' }, refuse)).toThrow(
      'property colour should not exist',
    );
  });
});
