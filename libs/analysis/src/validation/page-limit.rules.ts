import { IsOptional } from 'class-validator';
import { IsQueryInteger } from '@analyst/platform';

/** `limit`, when given: a page of 1 to 100 rows, in IsQueryInteger's words. */
export const IsPageLimit = (): PropertyDecorator => (target, property) =>
  [IsOptional(), IsQueryInteger(1, 100)].forEach((decorate) => decorate(target, property));
