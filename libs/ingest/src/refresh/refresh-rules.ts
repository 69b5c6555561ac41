// The refresh rules are pure domain rules; kept here for the ingest code that imports them.
export { CADENCE_MS, decideRefresh, type RefreshDecision, type RefreshFacts } from '@analyst/domain-content';
