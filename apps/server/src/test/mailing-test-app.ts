import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll } from 'vitest';
import { recipientOf, type SmtpCatcher, startSmtpCatcher } from './smtp-catcher.ts';
import { createTestApp, isolatedDatabase, type TestApp } from './test-app.ts';

/** A sentence for people, in French: accented letters, French quotes or apostrophes. */
export const FRENCH = /[éèàêôûç«’']|\b(le|la|les|est|doit)\b/i;

export interface MailingTestApp {
  readonly t: TestApp;
  readonly smtp: SmtpCatcher;
  /** The server's clock: tests move it instead of waiting. */
  clock: Date;
  /** The secret of the `count`-th e-mail received for `email` with a link to `publicUrl/<path>#<secret>`. */
  linkFor(email: string, path: string, count?: number): Promise<{ mail: ParsedMail; token: string }>;
  /**
   * The outbox row of the message to `email`, once marked sent: the mark follows the SMTP
   * server's answer, which can come just after the server kept the message.
   */
  sentRow(organizationId: string, email: string): Promise<{ status: string; payload: unknown }>;
}

/**
 * A server that e-mails through a real SMTP server, on its own database on PostgreSQL (outbox
 * deliveries must not pick up other suites' messages), with a clock the test moves. Call it in a
 * `describe`: it starts in `beforeAll` and stops in `afterAll`.
 */
export function mailingTestApp(options: { publicUrl: string; mailFrom: string; start: Date }): MailingTestApp {
  let t: TestApp | undefined;
  let smtp: SmtpCatcher | undefined;
  let isolated: Awaited<ReturnType<typeof isolatedDatabase>>;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('le serveur de test n’a pas démarré');
    return value;
  };
  const state: MailingTestApp = {
    get t() {
      return ready(t);
    },
    get smtp() {
      return ready(smtp);
    },
    clock: options.start,
    async sentRow(organizationId, email) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const row = (await state.t.app.services.notifications.outbox(organizationId)).find((entry) => entry.target === email);
        if (row?.status === 'sent' || Date.now() > deadline) {
          if (!row) throw new Error(`aucun message pour ${email} dans la boîte d’envoi`);
          return row;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async linkFor(email, path, count = 1) {
      const link = new RegExp(`${options.publicUrl.replace(/\./g, '\\.')}/${path}#([A-Za-z0-9_-]+)`);
      const deadline = Date.now() + 10_000;
      for (;;) {
        const mail = state.smtp.received.filter((received) => recipientOf(received) === email.toLowerCase())[count - 1];
        if (mail) {
          const match = link.exec(mail.text ?? '');
          if (!match?.[1]) throw new Error(`pas de lien dans : ${mail.text}`);
          return { mail, token: match[1] };
        }
        if (Date.now() > deadline) throw new Error(`aucun e-mail n° ${count} pour ${email}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    isolated = await isolatedDatabase();
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        PUBLIC_URL: options.publicUrl,
        MAIL_FROM: options.mailFrom,
        ...(isolated ? { DATABASE_URL: isolated.url } : {}),
      },
      now: () => state.clock,
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await isolated?.drop();
  });
  return state;
}
