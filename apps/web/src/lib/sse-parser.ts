/** One Server-Sent Event as the stream delivers it. */
export type SseMessage = { id: string | null; event: string; data: string };

/**
 * Incremental parser of a `text/event-stream` body (WHATWG HTML, "Parsing an event stream"):
 * feed it decoded text chunks as they arrive, it calls back for each complete event. Comments
 * (heartbeats) are skipped; `retry:` values are reported so the client can honour them.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | null = null;
  /** The last `id:` seen, kept across events as the spec's "last event ID". */
  lastEventId: string | null = null;

  constructor(
    private readonly onMessage: (message: SseMessage) => void,
    private readonly onRetry: (ms: number) => void = () => undefined,
  ) {}

  push(chunk: string): void {
    this.buffer += chunk;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) return;
      // A lone "\r" at the end may be the first half of "\r\n": wait for the next chunk.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) return;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.event = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.onRetry(Number(value));
        break;
      default:
        break;
    }
  }

  private dispatch(): void {
    if (this.id !== null) this.lastEventId = this.id;
    const hasData = this.data.length > 0;
    const message: SseMessage = { id: this.id, event: this.event || 'message', data: this.data.join('\n') };
    this.data = [];
    this.event = '';
    this.id = null;
    if (hasData) this.onMessage(message);
  }
}
