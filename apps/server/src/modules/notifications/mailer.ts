import { createHash } from 'node:crypto';
import nodemailer from 'nodemailer';

export interface Mailer {
  send(message: { to: string; subject: string; text: string; idempotencyKey: string }): Promise<void>;
  close(): void;
}

/**
 * E-mail through the operator's SMTP server (SMTP_URL); the Message-ID carries the idempotency key.
 * One connection per message: with a pool, a connection the server closed while idle can fail
 * the next message, which then waits for its retry (30 s, then more); an invitation or a password
 * reset must not be late for that. An alert storm's e-mails pay a handshake each instead, several
 * at a time (outbox-delivery.ts).
 */
export function createMailer(options: { smtpUrl: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(message) {
      const id = createHash('sha256').update(message.idempotencyKey).digest('hex').slice(0, 32);
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        messageId: `<${id}@vigie>`,
        headers: { 'X-Vigie-Delivery': message.idempotencyKey },
      });
    },
    close() {
      transport.close();
    },
  };
}
