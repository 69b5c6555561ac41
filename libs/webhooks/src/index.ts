export * from './webhook-events';
export * from './webhook-signature';
export * from './verify-webhook-signature';
export * from './signing-secrets';
export * from './address-policy';
export * from './url-guard';
export * from './send-webhook';
