import { CodedError } from '@analyst/contracts';

/** Refusals of an endpoint request that are not the aggregate's rules (those are `WebhookError`s). */
export type EndpointRequestErrorCode = 'invalid_request' | 'idempotency_key_reused';

export class EndpointRequestError extends CodedError<EndpointRequestErrorCode> {}
