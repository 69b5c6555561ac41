/** What an ingest request can be refused for besides the content aggregates' own rules (ContentError). */
export const INTAKE_ERROR_CODES = [
  'invalid_request',
  'invalid_url',
  'unsupported_platform',
  'insufficient_credits',
  'collection_name_ambiguous',
] as const;
export type IntakeErrorCode = (typeof INTAKE_ERROR_CODES)[number];

/** A content request refused before anything is written; ingest's one mapping gives it its status. */
export class IntakeError extends Error {
  override readonly name = 'IntakeError';
  constructor(
    readonly code: IntakeErrorCode,
    message: string,
    /** The ids a client may pick from, for an ambiguous collection name. */
    readonly candidates?: string[],
  ) {
    super(message);
  }
}
