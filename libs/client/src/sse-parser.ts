/** One event of a `text/event-stream`, as the HTML standard's parser dispatches it. */
export interface ServerSentEvent {
  /** The stream's last event id when this event was dispatched (`id:` of this frame or an earlier one). */
  id: string;
  /** `event:` of the frame, `message` when it named none. */
  event: string;
  /** The frame's `data:` lines joined with `\n`. */
  data: string;
}

/**
 * Incremental parser of `text/event-stream` (the HTML standard's "event stream interpretation"):
 * fed text as it arrives, in chunks cut anywhere (inside a line, between `\r` and `\n`), it returns
 * the events each chunk completes. Comment lines (`: heartbeat`) are skipped; `retry:` is kept for
 * the reconnection delay; a frame without `data:` dispatches nothing but its `id:` still counts.
 */
export class SseParser {
  /** The last `id:` seen (kept across frames, as `Last-Event-ID` is). */
  lastEventId = '';
  /** The last valid `retry:` in ms, or null when the server sent none. */
  retryMs: number | null = null;
  private buffer = '';
  private sawFirstChunk = false;
  private endedWithCr = false;
  private eventType = '';
  private dataLines: string[] = [];

  push(chunk: string): ServerSentEvent[] {
    let text = chunk;
    if (!this.sawFirstChunk && text.length > 0) {
      this.sawFirstChunk = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A `\r\n` split across two chunks: the `\r` ended the line already.
    if (this.endedWithCr && text.startsWith('\n')) text = text.slice(1);
    this.endedWithCr = text.endsWith('\r');
    this.buffer += text;
    const events: ServerSentEvent[] = [];
    const lines = this.buffer.split(/\r\n|\r|\n/);
    // The last piece is an unfinished line (empty when the chunk ended with a line break).
    this.buffer = lines.pop() ?? '';
    for (const line of lines) {
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): ServerSentEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.dataLines.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
      // Unknown fields are ignored, as the standard says.
    }
    return null;
  }

  private dispatch(): ServerSentEvent | null {
    const dataLines = this.dataLines;
    const eventType = this.eventType;
    this.dataLines = [];
    this.eventType = '';
    if (dataLines.length === 0) return null;
    return { id: this.lastEventId, event: eventType || 'message', data: dataLines.join('\n') };
  }
}
