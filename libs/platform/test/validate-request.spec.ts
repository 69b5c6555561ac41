import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { validateRequest } from '@analyst/platform';

class Shelf {
  @IsString()
  name!: string;
}

class Order {
  @IsIn(['asc', 'desc'], { message: 'order must be asc or desc' })
  order!: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(2)
  @IsString({ each: true })
  tags?: string[];

  @IsOptional()
  @ValidateNested()
  @Type(() => Shelf)
  shelf?: Shelf;
}

class Refused extends Error {}
const refuse = (message: string) => new Refused(message);

describe('validateRequest: class-validator rules for a request part a route reads itself', () => {
  it('answers an instance of the DTO, nested objects included', () => {
    const order = validateRequest(Order, { order: 'asc', tags: ['a'], shelf: { name: 'top' } }, refuse);
    expect(order).toBeInstanceOf(Order);
    expect(order.shelf).toBeInstanceOf(Shelf);
    expect(order).toEqual({ order: 'asc', tags: ['a'], shelf: { name: 'top' } });
  });

  it('refuses with each broken rule named by its field path, as the body pipe does', () => {
    expect(() => validateRequest(Order, { order: 'up', shelf: { name: 3 } }, refuse)).toThrow(
      new Refused('order must be asc or desc; shelf.name must be a string'),
    );
    expect(() => validateRequest(Order, { order: 'asc', tags: ['a', 'b', 'c'] }, refuse)).toThrow(
      'tags must contain no more than 2 elements',
    );
  });

  it('refuses a field the DTO does not declare', () => {
    expect(() => validateRequest(Order, { order: 'asc', colour: 'red' }, refuse)).toThrow(
      'property colour should not exist',
    );
  });

  it('refuses what is not an object with the message given', () => {
    for (const raw of [null, 'asc', ['asc']])
      expect(() =>
        validateRequest(Order, raw, refuse, { notAnObject: 'body must be a JSON object' }),
      ).toThrow(new Refused('body must be a JSON object'));
  });
});
