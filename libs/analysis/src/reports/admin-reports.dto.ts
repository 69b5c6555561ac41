import { Allow, IsOptional, ValidateBy, type ValidationArguments } from 'class-validator';

/** Text the app backend stores as written: non-empty once trimmed, at most `max` characters as sent. */
function IsStoredText(max = 20_000): PropertyDecorator {
  return ValidateBy({
    name: 'isStoredText',
    constraints: [max],
    validator: {
      validate: (value: unknown) => typeof value === 'string' && value.trim() !== '' && value.length <= max,
      defaultMessage: (args?: ValidationArguments) =>
        `${args?.property ?? 'value'} must be a non-empty string of at most ${max} characters`,
    },
  });
}

/** POST /admin/v1/teams/{teamId}/reports. */
export class SaveReportBody {
  @IsStoredText(200)
  campaignId!: string;

  @IsStoredText(500)
  title!: string;

  @IsStoredText()
  summary!: string;

  /** Kept when it is text, else stored as null (the backend may send its own user object). */
  @Allow()
  savedBy?: unknown;
}

/** POST /admin/v1/teams/{teamId}/saved-analyses. */
export class SaveAnalysisBody {
  @IsStoredText(500)
  name!: string;

  @IsOptional()
  @IsStoredText(50)
  kind?: string;

  // Stored as given when text (or, for the payload, as any JSON); anything else is stored as null.
  @Allow()
  analysisId?: unknown;

  @Allow()
  savedBy?: unknown;

  @Allow()
  payload?: unknown;

  @Allow()
  shareToken?: unknown;

  /** The text entries are kept; anything else in the list is dropped. */
  @Allow()
  inviteEmails?: unknown;
}
