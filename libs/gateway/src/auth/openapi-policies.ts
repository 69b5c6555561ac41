import type { OpenAPIObject } from '@nestjs/swagger';
import { API_PREFIX, BEARER_SCHEME, API_KEY_SCHEME } from '@analyst/platform';
import { ROUTE_POLICIES } from '@analyst/contracts';

/**
 * Writes the route table into the OpenAPI document: each operation gets the SDK name of the
 * contract's route (`listPosts`, `createAnalysis`, ...) and its scopes as role names on both key
 * schemes (OpenAPI 3.1 allows roles for non-OAuth schemes), so clients see in `security` what the
 * gateway checks.
 */
export function policiesIntoOpenApi(document: OpenAPIObject): void {
  for (const policy of ROUTE_POLICIES) {
    const operation =
      document.paths[`${API_PREFIX}${policy.path}`]?.[
        policy.method.toLowerCase() as 'get' | 'post' | 'delete'
      ];
    if (!operation) continue;
    operation.operationId = policy.operationId;
    operation.security = [{ [BEARER_SCHEME]: [...policy.scopes] }, { [API_KEY_SCHEME]: [...policy.scopes] }];
    Object.assign(operation, { 'x-rate-class': policy.rateClass });
  }
}
