import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpCatcher {
  /** Every message accepted, parsed, in the order received. */
  received: ParsedMail[];
  /**
   * `down`: messages are refused with a 451, as by a server that is down. `acceptAfterMs`: a
   * message's acceptance waits that long, as on a slow server; `receiving` then resolves as soon as
   * one is being received.
   */
  state: { down: boolean; acceptAfterMs: number };
  receiving: Promise<void>;
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  close(): Promise<void>;
}

/** A real SMTP server on a free port that keeps every message it receives, for the tests. */
export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const received: ParsedMail[] = [];
  const state = { down: false, acceptAfterMs: 0 };
  let started = () => {};
  const receiving = new Promise<void>((resolve) => {
    started = resolve;
  });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      started();
      if (state.down) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('Service indisponible'), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then(async (mail) => {
          if (state.acceptAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, state.acceptAfterMs));
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  // A client that vanishes (a killed server's pooled connection resets) is that client's end, not the catcher's.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    received,
    state,
    receiving,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first recipient of a message, in lower case. */
export const recipientOf = (mail: ParsedMail): string | undefined =>
  (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address?.toLowerCase();
