import { IsOptional } from 'class-validator';
import { IsQueryInteger } from '@analyst/platform';

/** `limit`, when given: a page of 1 to 100 rows, in IsQueryInteger's words. */
export const IsPageLimit = (): PropertyDecorator => (target, property) =>
  [IsOptional(), IsQueryInteger(1, 100)].forEach((decorate) => decorate(target, property));

/** The page size a checked `limit` asks for, or the route's default. */
export const pageLimit = (limit: string | null | undefined, fallback: number): number =>
  limit == null ? fallback : Number(limit);
