import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** Where the global setup's SMTP server writes what it receives, one JSON file per message. */
export const MAIL_DIR_ENV = 'VIGIE_E2E_MAIL_DIR';

export type ReceivedMail = { to: string[]; from: string; subject: string; text: string; html: string; receivedAt: string };

/**
 * A real SMTP server on 127.0.0.1 that accepts every message and writes it to `dir`: the e2e
 * server sends through it exactly as it would through an operator's relay.
 */
export async function startMailCatcher(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const mail: ReceivedMail = {
            to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            receivedAt: new Date().toISOString(),
          };
          // Written then renamed: a test polling the folder never reads half a file.
          const name = `${Date.now()}-${process.pid}-${count++}`;
          const partial = path.join(dir, `${name}.part`);
          writeFileSync(partial, JSON.stringify(mail));
          renameSync(partial, path.join(dir, `${name}.json`));
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Every message received so far by the global setup's SMTP server (test side). */
export function receivedMail(): ReceivedMail[] {
  const dir = process.env[MAIL_DIR_ENV];
  if (!dir) throw new Error(`${MAIL_DIR_ENV} is not set: the global setup did not run.`);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as ReceivedMail);
}

/** The newest message sent to `address`, if any. */
export function lastMailTo(address: string): ReceivedMail | undefined {
  return receivedMail()
    .filter((mail) => mail.to.includes(address.toLowerCase()))
    .at(-1);
}

/** The invitation link (`<PUBLIC_URL>/invitation#<token>`) in a message, if it has one. */
export function invitationLink(mail: ReceivedMail | undefined): string | null {
  if (!mail) return null;
  const pattern = /https?:\/\/[^\s"'<>]+\/invitation#[A-Za-z0-9_-]+/;
  return mail.text.match(pattern)?.[0] ?? mail.html.match(pattern)?.[0] ?? null;
}

/** The password reset link (`<PUBLIC_URL>/reinitialiser-mot-de-passe#<token>`) in a message, if it has one. */
export function resetLink(mail: ReceivedMail | undefined): string | null {
  if (!mail) return null;
  const pattern = /https?:\/\/[^\s"'<>]+\/reinitialiser-mot-de-passe#[A-Za-z0-9_-]+/;
  return mail.text.match(pattern)?.[0] ?? mail.html.match(pattern)?.[0] ?? null;
}
