import type { ValidationError } from 'class-validator';
import { AnalysisError, type AnalysisErrorCode } from '../errors/analysis-error';

/** A rule's options saying which code its refusal carries, where it is not the parser's own. */
export const refusedAs = (code: AnalysisErrorCode): { context: { code: AnalysisErrorCode } } => ({
  context: { code },
});

/** The code the first broken rule names (in the order the message lists the rules), if any. */
function firstRuleCode(errors: readonly ValidationError[]): AnalysisErrorCode | undefined {
  const first = errors[0];
  if (!first) return undefined;
  if (first.constraints && Object.keys(first.constraints).length > 0) {
    const rule = Object.keys(first.constraints)[0];
    return (first.contexts?.[rule] as { code?: AnalysisErrorCode } | undefined)?.code;
  }
  return firstRuleCode(first.children ?? []);
}

/**
 * validateRequest's `refuse` for this service: its message as an AnalysisError of `code`, or of
 * the code the first broken rule names (refusedAs).
 */
export const refuseAs =
  (code: AnalysisErrorCode) =>
  (message: string, errors: readonly ValidationError[] = []): AnalysisError =>
    new AnalysisError(firstRuleCode(errors) ?? code, message);
