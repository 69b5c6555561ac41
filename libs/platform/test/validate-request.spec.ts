import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  ValidateBy,
  ValidateNested,
  type ValidationError,
} from 'class-validator';
import {
  IsQueryInteger,
  IsQueryNumber,
  acceptedQueryNumber,
  checkedQueryNumber,
  firstRuleCode,
  validateRequest,
} from '@analyst/platform';

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

class Page {
  @IsOptional()
  @IsQueryInteger(1, 100)
  limit?: string;

  @IsOptional()
  @IsQueryNumber(0, 1)
  min?: string;
}

describe('IsQueryInteger and IsQueryNumber: the query-string number grammar (a JSON number written plainly)', () => {
  it('accepts decimal integers and JSON numbers in range, left as text', () => {
    expect(validateRequest(Page, { limit: '100', min: '1e-3' }, refuse)).toEqual({
      limit: '100',
      min: '1e-3',
    });
  });

  it('refuses hex, out-of-range, repeated and non-JSON numbers, naming the parameter and what it must be', () => {
    const messages = [
      [{ limit: '0x10' }, 'limit must be an integer from 1 to 100 written in decimal digits, got "0x10"'],
      [{ limit: '101' }, 'limit must be an integer from 1 to 100 written in decimal digits, got "101"'],
      [{ limit: ['1', '2'] }, 'limit must be given once'],
      [{ min: 'Infinity' }, 'min must be a number from 0 to 1 (JSON number syntax), got "Infinity"'],
    ] as const;
    for (const [raw, message] of messages)
      expect(() => validateRequest(Page, raw, refuse)).toThrow(new Refused(message));
  });

  it('reads the number a value holds only when the rule accepts it (acceptedQueryNumber)', () => {
    expect(
      ['7', '7.5', '1e-3', '0x10', ' 5', '+5', 'Infinity', '11'].map((v) => acceptedQueryNumber(v, 0, 10)),
    ).toEqual([7, 7.5, 0.001, null, null, null, null, null]);
    expect(acceptedQueryNumber(['1'], 0, 10)).toBeNull();
  });
});

class Coded {
  @IsIn(['a'], { context: { code: 'bad_letter' } })
  letter!: string;

  @IsOptional()
  @IsQueryInteger(1, 9, { validateIf: (_o: object, value: unknown) => !Array.isArray(value) })
  size?: string | string[];
}

class Cellar {
  @ValidateNested()
  @Type(() => Coded)
  shelf!: Coded;
}

describe('validateRequest: what a service with several codes reads from the errors', () => {
  it("hands refuse the errors, with each broken rule's context", () => {
    let seen: readonly ValidationError[] = [];
    expect(() =>
      validateRequest(Coded, { letter: 'b' }, (message, errors) => {
        seen = errors;
        return new Refused(message);
      }),
    ).toThrow(new Refused('letter must be one of the following values: a'));
    expect(seen.map((e) => e.contexts)).toEqual([{ isIn: { code: 'bad_letter' } }]);
  });

  it("reads the first broken rule's code, nested fields included, or none when it names none", () => {
    const codeOf = (raw: object, dto: new () => object = Coded) => {
      let code: string | undefined = 'unread';
      try {
        validateRequest(dto, raw, (message, errors) => {
          code = firstRuleCode(errors);
          return new Refused(message);
        });
      } catch {
        // the refusal itself is not under test here
      }
      return code;
    };
    expect(codeOf({ letter: 'b', size: '10' })).toBe('bad_letter');
    expect(codeOf({ letter: 'a', size: '10' })).toBeUndefined();
    expect(codeOf({ shelf: { letter: 'b' } }, Cellar)).toBe('bad_letter');
  });

  it('takes class-validator options on IsQueryInteger (a rule skipped by validateIf)', () => {
    expect(validateRequest(Coded, { letter: 'a', size: ['1', '2'] }, refuse).size).toEqual(['1', '2']);
    expect(() => validateRequest(Coded, { letter: 'a', size: '10' }, refuse)).toThrow(
      new Refused('size must be an integer from 1 to 9 written in decimal digits, got "10"'),
    );
  });
});

describe('validateRequest: a route that words an unknown field its own way', () => {
  it('refuses each undeclared top-level field with the given words, the other rules unchanged', () => {
    expect(() =>
      validateRequest(Order, { order: 'up', colour: 'red' }, refuse, {
        unknownField: (field) => `${field} is not a field of an order`,
      }),
    ).toThrow(new Refused('colour is not a field of an order; order must be asc or desc'));
  });
});

class Pantry {
  @ValidateBy({
    name: 'isStocked',
    validator: { validate: () => false, defaultMessage: () => 'the shelf.name on the label is unreadable' },
  })
  name!: string;
}

class Larder {
  @ValidateNested()
  @Type(() => Pantry)
  shelf!: Pantry;
}

describe('validateRequest: message paths', () => {
  it('keeps a message that already names its field’s whole path as worded', () => {
    expect(() => validateRequest(Larder, { shelf: { name: 'x' } }, refuse)).toThrow(
      new Refused('the shelf.name on the label is unreadable'),
    );
  });
});

describe('checkedQueryNumber: the number of an accepted query value, or the route default', () => {
  it('reads what IsQueryInteger and IsQueryNumber accepted and falls back when nothing was given', () => {
    const page = validateRequest(Page, { limit: '40', min: '1e-3' }, refuse);
    expect([checkedQueryNumber(page.limit, 25), checkedQueryNumber(page.min, 0.5)]).toEqual([40, 0.001]);
    expect([checkedQueryNumber(undefined, 25), checkedQueryNumber(null, 25)]).toEqual([25, 25]);
  });
});
