import { CodedError } from '@analyst/contracts';

/** What an ingest request can be refused for besides the content aggregates' own rules (ContentError). */
export type IntakeErrorCode =
  | 'invalid_request'
  | 'invalid_url'
  | 'unsupported_platform'
  | 'insufficient_credits'
  | 'collection_name_ambiguous';

/** A content request refused before anything is written; ingest's one mapping gives it its status. */
export class IntakeError extends CodedError<IntakeErrorCode> {
  constructor(
    code: IntakeErrorCode,
    message: string,
    /** The ids a client may pick from, for an ambiguous collection name. */
    readonly candidates?: string[],
  ) {
    super(code, message);
  }
}
