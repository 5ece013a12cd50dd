export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
  receivedAt: number;
}

/** A fetch-based Server-Sent Events reader with a bearer header, like the web app's. */
export async function openStream(baseUrl: string, token: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/stream`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  const done = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let index: number;
        while ((index = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          let id: string | undefined;
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length > 0) events.push({ id, event, data: data.join('\n'), receivedAt: Date.now() });
          for (const wake of waiters) wake();
        }
      }
    } catch {
      // Aborted.
    }
  })();

  return {
    response,
    events,
    /** Settles when the server ends the stream (or the reader is closed). */
    ended: done,
    /** Resolves with the first event (new or already received) that matches, or rejects after the timeout. */
    waitFor(predicate: (event: SseEvent) => boolean, timeoutMs = 5000): Promise<SseEvent> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(predicate);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Aucun événement attendu reçu en ${timeoutMs} ms ; reçus : ${events.map((e) => e.event).join(', ')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      controller.abort();
      await done;
    },
  };
}
