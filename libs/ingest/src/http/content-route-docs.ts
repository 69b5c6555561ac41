import { ApiHeader } from '@nestjs/swagger';
import { envelope, openApi, pollHeaders } from '@analyst/platform';

/** What the three content routes answer with, described once for the OpenAPI document. */
export const JOB = envelope(openApi.ref('ContentJob'), openApi.ref('ContentJobMeta'));

export const ACCEPTED = {
  description: 'Accepted: the job, with accepted, skipped and rejected final; poll the Location',
  headers: pollHeaders('/analyst/v1/content/jobs/<job_id>'),
};

export const REPLAYED = {
  description:
    'An identical request within the retention window: its existing job, with meta.replayed true; nothing runs again',
};

/** Optional on the add routes: a retry with the same key returns the first job, on any replica. */
export const IDEMPOTENCY_KEY = ApiHeader({
  name: 'Idempotency-Key',
  required: false,
  description:
    'Names the request: a retry with the same key returns the first job (200, meta.replayed true), whichever instance answers. The same key with another body is 409 idempotency_key_reused. An identical body is replayed with or without a key.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,200}$' },
});

export const AMBIGUOUS =
  'A collection name matches more than one collection (collection_name_ambiguous, with error.candidates)';
