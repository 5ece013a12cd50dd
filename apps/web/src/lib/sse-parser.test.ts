import { describe, expect, it } from 'vitest';
import { SseParser, type SseMessage } from './sse-parser';

function parse(chunks: string[]) {
  const messages: SseMessage[] = [];
  const retries: number[] = [];
  const parser = new SseParser(
    (message) => messages.push(message),
    (ms) => retries.push(ms),
  );
  for (const chunk of chunks) parser.push(chunk);
  return { messages, retries, parser };
}

describe('SseParser', () => {
  it('reads events with their id, type and JSON data', () => {
    const { messages, parser } = parse(['id: 7\nevent: reading\ndata: {"a":1}\n\n']);
    expect(messages).toEqual([{ id: '7', event: 'reading', data: '{"a":1}' }]);
    expect(parser.lastEventId).toBe('7');
  });

  it('joins an event split across chunks at any point, even inside a CRLF', () => {
    const text = 'id: 1\r\nevent: device\r\ndata: {"x":\r\ndata: 2}\r\n\r\n';
    for (let cut = 1; cut < text.length; cut += 1) {
      const { messages } = parse([text.slice(0, cut), text.slice(cut)]);
      expect(messages).toEqual([{ id: '1', event: 'device', data: '{"x":\n2}' }]);
    }
  });

  it('skips heartbeat comments and reports the retry delay', () => {
    const { messages, retries } = parse(['retry: 3000\n\n: ping\n\n', ': connecté\n\nevent: resync\ndata: {}\n\n']);
    expect(retries).toEqual([3000]);
    expect(messages).toEqual([{ id: null, event: 'resync', data: '{}' }]);
  });

  it('does not dispatch an event until its blank line arrives', () => {
    const { messages } = parse(['event: reading\ndata: {}\n']);
    expect(messages).toEqual([]);
  });
});
