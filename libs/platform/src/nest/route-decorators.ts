import { SetMetadata, applyDecorators } from '@nestjs/common';
import { routePolicy, type HttpMethod, type RateClassId, type Scope } from '@analyst/contracts';

export const SCOPES_METADATA = 'analyst:gateway:scopes';
export const RATE_CLASS_METADATA = 'analyst:gateway:rate-class';

/** The key must hold every one of these scopes (403 naming the missing ones otherwise). */
export const RequireScopes = (...scopes: Scope[]) => SetMetadata(SCOPES_METADATA, scopes);

/**
 * The rate class the route is charged to besides `global`. `analysis_create` becomes
 * `analysis_search` for a body with an AI search.
 */
export const RateClass = (rateClass: RateClassId) => SetMetadata(RATE_CLASS_METADATA, rateClass);

/** Scopes and class straight from the contract's table: `@ApiRoute('GET /analyses/{analysisId}')`. */
export function ApiRoute(route: `${HttpMethod} /${string}`): MethodDecorator & ClassDecorator {
  const policy = routePolicy(route);
  return applyDecorators(RequireScopes(...policy.scopes), RateClass(policy.rateClass));
}
