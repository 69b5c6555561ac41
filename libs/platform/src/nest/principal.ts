import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { PlanId, Scope } from '@analyst/contracts';

/** Who is calling: the authenticated key, its team, and the team the request acts on. */
export interface Principal {
  keyId: string;
  keyName: string;
  scopes: readonly Scope[];
  /** The key's own team. */
  teamId: string;
  plan: PlanId;
  /** The team the request acts on: the key's team, or the Enterprise sub-team named by `teamId`. */
  targetTeamId: string;
  targetPlan: PlanId;
}

const PRINCIPAL = Symbol.for('analyst.gateway.principal');

type Carrier = { [PRINCIPAL]?: Principal };

export function attachPrincipal(request: object, principal: Principal): void {
  (request as Carrier)[PRINCIPAL] = principal;
}

/** The principal of an authenticated request; undefined before the gateway admitted it. */
export function principalOf(request: object): Principal | undefined {
  return (request as Carrier)[PRINCIPAL];
}

/** Controller parameter: `me(@Principal() principal: Principal)` (a value and a type of the same name). */
export const Principal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = principalOf(context.switchToHttp().getRequest());
  if (!principal) throw new Error('@Principal() used on a route the gateway does not authenticate');
  return principal;
});
