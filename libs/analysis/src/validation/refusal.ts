import type { ValidationError } from 'class-validator';
import { firstRuleCode } from '@analyst/platform';
import { AnalysisError, type AnalysisErrorCode } from '../errors/analysis-error';

/** A rule's options saying which code its refusal carries, where it is not the parser's own. */
export const refusedAs = (code: AnalysisErrorCode): { context: { code: AnalysisErrorCode } } => ({
  context: { code },
});

/**
 * validateRequest's `refuse` for this service: its message as an AnalysisError of `code`, or of
 * the code the first broken rule names (refusedAs).
 */
export const refuseAs =
  (code: AnalysisErrorCode) =>
  (message: string, errors: readonly ValidationError[] = []): AnalysisError =>
    new AnalysisError(firstRuleCode<AnalysisErrorCode>(errors) ?? code, message);
