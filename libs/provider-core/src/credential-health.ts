/** What a platform adapter reports to the health registry. */
export interface ProviderHealth {
  ready: boolean;
  detail?: string;
}

/** Not ready while the platform refuses our credentials (`authProblem` says how): every call would fail. */
export function credentialHealth(authProblem: string | null): ProviderHealth {
  return authProblem ? { ready: false, detail: authProblem } : { ready: true };
}
