export * from './provider-fault';
export * from './retry-policy';
export * from './provider-telemetry';
export * from './json-http';
export * from './routing-provider';
export * from './keyword-test';
export * from './fault-outcomes';
export * from './credential-health';
