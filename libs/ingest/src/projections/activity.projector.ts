import type { Projector } from '@analyst/platform';
import type { PostCreated } from '@analyst/contracts';
import { ACTIVITY } from '../ingest.tokens';

/** One line of a team's activity feed (`_id` = the event id that caused it). */
export interface ActivityDoc {
  _id: string;
  teamId: string;
  kind: 'post_added';
  postId: string;
  link: string;
  actor: { type: 'api_key'; id: string; name: string };
  message: string;
  at: string;
  [key: string]: unknown;
}

export const activityProjector: Projector<ActivityDoc, PostCreated> = {
  name: 'ingest-activity',
  collection: ACTIVITY,
  eventTypes: ['PostCreated'],
  indexes: [{ keys: { teamId: 1, at: -1 } }],
  documentIds: (event) => (event.data.addedVia === 'api' ? [event.id] : []),
  evolve(_doc, event, id) {
    const d = event.data;
    return {
      _id: id,
      teamId: d.teamId,
      kind: 'post_added',
      postId: d.postId,
      link: d.normalizedLink,
      actor: { type: 'api_key', id: d.addedBy.id, name: d.addedBy.name },
      message: `post added by API key ${d.addedBy.id} (${d.addedBy.name})`,
      at: event.metadata.occurredAt,
    };
  },
};
