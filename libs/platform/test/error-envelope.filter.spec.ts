import { HttpException, Logger, type ArgumentsHost } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from '@analyst/contracts';
import { ErrorEnvelopeFilter } from '../src/nest/error-envelope.filter';

interface Sent {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Runs the filter on one error and returns what it wrote to the reply. */
function answer(exception: unknown): Sent {
  const sent: Sent = { status: 0, headers: {}, body: undefined };
  const reply = {
    header(name: string, value: string) {
      sent.headers[name] = value;
      return reply;
    },
    status(code: number) {
      sent.status = code;
      return reply;
    },
    send(body: unknown) {
      sent.body = body;
      return reply;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => reply as unknown as FastifyReply }) };
  new ErrorEnvelopeFilter().catch(exception, host as ArgumentsHost);
  return sent;
}

describe('ErrorEnvelopeFilter: every error as one envelope', () => {
  let logged: jest.SpyInstance;
  beforeEach(() => {
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  it('sends an ApiError as thrown: its status, message, code, candidates and headers', () => {
    const sent = answer(new ApiError(409, 'pick one', 'ambiguous', ['a', 'b'], { 'Retry-After': '3' }));
    expect(sent).toEqual({
      status: 409,
      headers: { 'Retry-After': '3' },
      body: { error: { message: 'pick one', code: 'ambiguous', candidates: ['a', 'b'] } },
    });
  });

  it('gives a 400 ApiError without a code the generic one, and keeps a 5xx ApiError message', () => {
    expect(answer(new ApiError(400, 'bad')).body).toEqual({
      error: { message: 'bad', code: 'invalid_request' },
    });
    expect(answer(new ApiError(502, 'upstream said no')).body).toEqual({
      error: { message: 'upstream said no' },
    });
    expect(logged).not.toHaveBeenCalled();
  });

  it('codes the framework errors by status and hides a 5xx one', () => {
    expect(answer(new HttpException({ message: ['a must be set', 'b too'] }, 404))).toMatchObject({
      status: 404,
      body: { error: { message: 'a must be set; b too', code: 'route_not_found' } },
    });
    expect(answer(new HttpException('teapot', 418)).body).toEqual({ error: { message: 'teapot' } });
    expect(answer(new HttpException('disk on fire', 500)).body).toEqual({
      error: { message: 'internal error' },
    });
    expect(answer({ statusCode: 413, message: 'too big' })).toMatchObject({
      status: 413,
      body: { error: { message: 'too big', code: 'body_too_large' } },
    });
    expect(logged).not.toHaveBeenCalled();
  });

  it('answers anything else 500 "internal error" and logs it', () => {
    expect(answer(new Error('secret detail'))).toEqual({
      status: 500,
      headers: {},
      body: { error: { message: 'internal error' } },
    });
    expect(answer('a string')).toMatchObject({ status: 500, body: { error: { message: 'internal error' } } });
    expect(answer({ statusCode: 400 })).toMatchObject({ status: 500 });
    expect(logged).toHaveBeenCalledTimes(3);
    expect(String(logged.mock.calls[0][0])).toContain('secret detail');
  });
});
