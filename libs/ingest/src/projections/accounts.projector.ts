import type { Projector } from '@analyst/platform';
import type { ContentJobOpened } from '@analyst/domain-content';
import { ACCOUNTS } from '../ingest.tokens';

/** An account saved on a team by POST /content/accounts/add (`_id` = `<teamId>:<normalized url>`). */
export interface AccountDoc {
  _id: string;
  teamId: string;
  url: string;
  platform: string;
  firstAddedAt: string;
  lastJobId: string;
  jobCount: number;
  [key: string]: unknown;
}

export const accountsProjector: Projector<AccountDoc, ContentJobOpened> = {
  name: 'ingest-accounts',
  collection: ACCOUNTS,
  eventTypes: ['ContentJobOpened'],
  documentIds(event) {
    const d = event.data;
    return d.kind === 'account' && d.account ? [`${d.teamId}:${d.account.url}`] : [];
  },
  evolve(doc, event, id) {
    const d = event.data;
    return {
      _id: id,
      teamId: d.teamId,
      url: d.account!.url,
      platform: d.account!.platform,
      firstAddedAt: doc?.firstAddedAt ?? d.createdAt,
      lastJobId: d.jobId,
      jobCount: (doc?.jobCount ?? 0) + 1,
    };
  },
};
