/* global describe, it, expect, beforeAll, afterAll */
// tools/code-figures: the reading walk, the routes, the deciders and the casts, on a small project
// written to a temporary folder, where every figure is known by hand.
const { mkdtempSync, mkdirSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join, relative } = require('node:path');
const ts = require('typescript');
const { fileCasts } = require('../code-figures/casts');
const { commandRoutes, readRoutes } = require('../code-figures/routes');
const { decidersMarkdown } = require('../code-figures/deciders-markdown');
const { loadCodeBase } = require('../code-figures/program');
const { returnsOf, walkRequest } = require('../code-figures/request-walk');

const FILES = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { target: 'es2022', module: 'commonjs', strict: true, experimentalDecorators: true },
  }),
  'libs/eventsourcing/src/decider.ts': `
export interface Decider<C, S> { decide(command: C, state: S): string[]; initialState: S }`,
  'libs/platform/src/http.ts': `
export function Controller(prefix?: string): ClassDecorator { return () => undefined; }
export function Post(path?: string | string[]): MethodDecorator { return () => undefined; }
export function Get(path?: string): MethodDecorator { return () => undefined; }`,
  'libs/platform/src/command-handler.ts': `
import type { Decider } from '../../eventsourcing/src/decider';
export class CommandHandler<C, S> {
  constructor(private readonly decider: Decider<C, S>) {}
  handle(command: C): string[] { return this.decider.decide(command, this.decider.initialState); }
}`,
  'libs/domain/src/order.decider.ts': `
import type { Decider } from '../../eventsourcing/src/decider';
export function decideOrder(command: string): string[] { return [command]; }
export function orderStream(id: string): string { return 'order-' + id; }
export const orderDecider: Decider<string, number> = { decide: decideOrder, initialState: 0 };`,
  'libs/shop/src/rules.ts': `
export function IsText(): PropertyDecorator { return () => undefined; }
export function Nested(of: () => unknown): PropertyDecorator { return () => void of; }`,
  'libs/shop/src/base.dto.ts': `
import { IsText } from './rules';
export class BaseDto { @IsText() note!: string; }`,
  'libs/shop/src/order.dto.ts': `
import { BaseDto } from './base.dto';
import { IsText, Nested } from './rules';
export class LineDto { @IsText() sku!: string; }
export class OrderDto extends BaseDto { @Nested(() => LineDto) lines!: LineDto[]; }`,
  'libs/shop/src/steps.ts': `
export function validate(sku: string): string { return normalize(sku); }
export function normalize(sku: string): string { return sku.trim(); }
export function format(event: string): string { return event.toUpperCase(); }`,
  'libs/shop/src/answer.ts': `
export function answer(events: string[]): string[] { return events; }`,
  'libs/shop/src/order-commands.ts': `
import { CommandHandler } from '../../platform/src/command-handler';
import { orderDecider } from '../../domain/src/order.decider';
export class OrderCommands extends CommandHandler<string, number> {
  constructor() { super(orderDecider); }
}`,
  'libs/shop/src/order.service.ts': `
import { OrderCommands } from './order-commands';
import type { OrderDto } from './order.dto';
import { format, validate } from './steps';
export class OrderService {
  constructor(private readonly commands: OrderCommands) {}
  place(body: OrderDto): string[] {
    const sku = validate(body.lines[0].sku);
    const events = this.commands.handle(sku);
    return events.map(format);
  }
}`,
  'libs/shop/src/order.controller.ts': `
import { Controller, Get, Post } from '../../platform/src/http';
import { decideOrder, orderStream } from '../../domain/src/order.decider';
import { answer } from './answer';
import { OrderDto } from './order.dto';
import { OrderService } from './order.service';
const paths = (): string[] => ['a', 'b'];
@Controller('orders')
export class OrderController {
  constructor(private readonly orders: OrderService) {}
  @Post('place')
  place(body: OrderDto): string[] {
    const events = this.orders.place(body);
    return answer(events);
  }
  @Post()
  check(): string[] {
    const twice = (sku: string) => decideOrder(sku).concat(decideOrder(sku));
    return twice('x');
  }
  @Post(paths())
  forward(): void {}
  @Get('list')
  list(): string[] { return [orderStream('x')]; }
}`,
};

describe('code figures', () => {
  let root;
  let codeBase;
  const rel = (file) => relative(root, file);
  const route = (name) => commandRoutes(codeBase.program, codeBase.files).find((r) => r.route === name);

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'code-figures-'));
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    codeBase = loadCodeBase(root);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds the command routes by their decorators, not a computed path; GET routes apart', () => {
    expect(commandRoutes(codeBase.program, codeBase.files).map((r) => r.route)).toEqual([
      'POST /orders',
      'POST /orders/place',
    ]);
    expect(rel(route('POST /orders/place').controller)).toBe('libs/shop/src/order.controller.ts');
    expect(readRoutes(codeBase.program, codeBase.files).map((r) => r.route)).toEqual(['GET /orders/list']);
  });

  it('follows a request in reading order: the DTOs, then each call, a callee read once', () => {
    const walk = walkRequest(codeBase, route('POST /orders/place').method);
    expect(walk.path.map(rel)).toEqual([
      'libs/shop/src/order.controller.ts',
      'libs/shop/src/order.dto.ts', // OrderDto, the parameter's class
      'libs/shop/src/base.dto.ts', // BaseDto, which it extends
      'libs/shop/src/rules.ts', // @IsText()
      'libs/shop/src/order.dto.ts',
      'libs/shop/src/rules.ts', // @Nested()
      'libs/shop/src/order.dto.ts', // LineDto, named by OrderDto (its @IsText() read already)
      'libs/shop/src/order.controller.ts', // the body
      'libs/shop/src/order.service.ts', // this.orders.place(): through the injected class
      'libs/shop/src/steps.ts', // validate(), then normalize() beside it
      'libs/shop/src/order.service.ts',
      'libs/shop/src/order-commands.ts', // this.commands.handle() is the platform's: the receiver's constructor
      'libs/shop/src/order.service.ts',
      'libs/shop/src/steps.ts', // format, passed to map
      'libs/shop/src/order.controller.ts',
      'libs/shop/src/answer.ts',
    ]);
    expect(walk.files).toHaveLength(8);
    expect(walk.returns).toBe(8);
    // place, OrderDto, BaseDto, IsText, Nested, LineDto, OrderService.place, validate, normalize, the constructor, format, answer
    expect(walk.read).toBe(12);
    expect(walk.shared.map(rel)).toEqual(['libs/platform/src/command-handler.ts']);
    expect(walk.deciders.map((d) => [d.name, rel(d.file), d.via.map(rel)])).toEqual([
      [
        'orderDecider',
        'libs/domain/src/order.decider.ts',
        [
          'libs/shop/src/order.controller.ts',
          'libs/shop/src/order.service.ts',
          'libs/shop/src/order-commands.ts',
          'libs/domain/src/order.decider.ts',
        ],
      ],
    ]);
  });

  it('reads a local function in place and counts a decider whose own function is called', () => {
    const walk = walkRequest(codeBase, route('POST /orders').method);
    expect(walk.path.map(rel)).toEqual([
      'libs/shop/src/order.controller.ts',
      'libs/domain/src/order.decider.ts',
    ]);
    expect(walk.read).toBe(2);
    expect(walk.returns).toBe(0);
    expect(walk.deciders.map((d) => d.name)).toEqual(['orderDecider']);
  });

  it('tables every route with its deciders, a row per call chain, paths under libs/<lib>/src shortened', () => {
    const walks = ['POST /orders', 'POST /orders/place'].map((name) => ({
      route: name,
      walk: walkRequest(codeBase, route(name).method),
    }));
    expect(decidersMarkdown(root, walks)).toEqual([
      '| Route | Decider | Files from the controller to the decider |',
      '| --- | --- | --- |',
      '| `POST /orders` | `orderDecider` | `shop/order.controller.ts` → `domain/order.decider.ts` |',
      '| `POST /orders/place` | `orderDecider` | `shop/order.controller.ts` → `shop/order.service.ts` → `shop/order-commands.ts` → `domain/order.decider.ts` |',
    ]);
  });

  it('puts routes that would pass 400 characters on a row of their own', () => {
    const decider = { name: 'orderDecider', file: join(root, 'libs/domain/src/order.decider.ts') };
    const walks = [1, 2, 3, 4].map((n) => ({
      route: `POST /${'x'.repeat(100)}/${n}`,
      walk: { deciders: [{ ...decider, via: [join(root, 'libs/shop/src/c.ts'), decider.file] }] },
    }));
    const rows = decidersMarkdown(root, walks).slice(2);
    expect(rows.map((row) => (row.match(/POST \//g) ?? []).length)).toEqual([3, 1]);
    expect(rows.every((row) => row.length <= 400)).toBe(true);
  });

  it('does not count a decider whose file is read for another function (its stream name)', () => {
    const list = readRoutes(codeBase.program, codeBase.files)[0];
    const walk = walkRequest(codeBase, list.method);
    expect(walk.path.map(rel)).toEqual([
      'libs/shop/src/order.controller.ts',
      'libs/domain/src/order.decider.ts',
    ]);
    expect(walk.deciders).toEqual([]);
  });

  it('counts a return each time the path comes back to a file it left', () => {
    expect(returnsOf(['a', 'b', 'a', 'c', 'b', 'a'])).toBe(3);
    expect(returnsOf(['a', 'b', 'c'])).toBe(0);
  });

  it('splits the casts: as never, as unknown as (one, though two in the total), as const aside', () => {
    const source = ts.createSourceFile(
      'casts.ts',
      `const a = x as never;
       const b = y as unknown as string;
       const c = z as const;
       const d = <number>w;
       const e = (q as unknown) as Foo;`,
      ts.ScriptTarget.ES2022,
      true,
    );
    expect(fileCasts(source)).toEqual({ file: 'casts.ts', total: 6, asNever: 1, asUnknownAs: 2 });
  });
});
