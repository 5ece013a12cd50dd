import { createHash } from 'node:crypto';
import nodemailer from 'nodemailer';

export interface Mailer {
  send(message: { to: string; subject: string; text: string; idempotencyKey: string }): Promise<void>;
  close(): void;
}

/**
 * E-mail through the operator's SMTP server (SMTP_URL); the Message-ID carries the idempotency key.
 * Connections are pooled and reused: an alert storm's thousands of e-mails do not each pay a new
 * TCP (and TLS) handshake and greeting.
 */
export function createMailer(options: { smtpUrl: string; from: string }): Mailer {
  const transport = nodemailer.createTransport({ url: options.smtpUrl, pool: true, maxConnections: 3, maxMessages: 500 });
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
