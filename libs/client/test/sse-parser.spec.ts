import { SseParser, type ServerSentEvent } from '../src/sse-parser';

const STREAM =
  '\uFEFFretry: 3000\n\n' +
  ': heartbeat\n\n' +
  'id: 41\nevent: analysis.ready\ndata: {"id":"evt_a","type":"analysis.ready"}\n\n' +
  'id: 42\r\nevent: post.updated\r\ndata: {"id":"evt_b",\r\ndata: "type":"post.updated"}\r\n\r\n' +
  'id: 43\rdata:no-space\r\r' +
  'id: 44\n\n' +
  'data: after-44\n\n';

const EXPECTED: ServerSentEvent[] = [
  { id: '41', event: 'analysis.ready', data: '{"id":"evt_a","type":"analysis.ready"}' },
  { id: '42', event: 'post.updated', data: '{"id":"evt_b",\n"type":"post.updated"}' },
  { id: '43', event: 'message', data: 'no-space' },
  { id: '44', event: 'message', data: 'after-44' },
];

function parseInChunks(chunks: string[]): { events: ServerSentEvent[]; parser: SseParser } {
  const parser = new SseParser();
  const events = chunks.flatMap((chunk) => parser.push(chunk));
  return { events, parser };
}

describe('SseParser', () => {
  it('reads a whole stream: LF, CRLF and CR line ends, multi-line data, comments, retry, a BOM', () => {
    const { events, parser } = parseInChunks([STREAM]);
    expect(events).toEqual(EXPECTED);
    expect(parser.retryMs).toBe(3000);
    expect(parser.lastEventId).toBe('44');
  });

  it('gives the same events however the stream is cut into chunks (every cut point, and one character at a time)', () => {
    for (let cut = 1; cut < STREAM.length; cut++)
      expect(parseInChunks([STREAM.slice(0, cut), STREAM.slice(cut)]).events).toEqual(EXPECTED);
    expect(parseInChunks([...STREAM]).events).toEqual(EXPECTED);
  });

  it('dispatches nothing until the blank line that ends a frame', () => {
    const parser = new SseParser();
    expect(parser.push('id: 7\nevent: analysis.failed\ndata: {}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '7', event: 'analysis.failed', data: '{}' }]);
  });

  it('ignores an id with a NUL, an unreadable retry and unknown fields', () => {
    const { events, parser } = parseInChunks([
      'id: 5\nretry: soon\nfoo: bar\ndata: x\n\nid: 6\0\ndata: y\n\n',
    ]);
    expect(events).toEqual([
      { id: '5', event: 'message', data: 'x' },
      { id: '5', event: 'message', data: 'y' },
    ]);
    expect(parser.retryMs).toBeNull();
  });
});
