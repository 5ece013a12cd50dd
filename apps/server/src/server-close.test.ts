/**
 * A graceful stop (SIGTERM, a deployment) lets the services finish what they had under way before
 * the database closes: an e-mail being handed to a slow SMTP server when the stop comes is marked
 * as sent, and does not leave a second time at the next start.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { createServer } from './server.ts';
import { startSmtpCatcher, type SmtpCatcher } from './test/smtp-catcher.ts';
import { databaseKind, testConfig } from './test/test-app.ts';

let smtp: SmtpCatcher | undefined;
afterEach(async () => {
  await smtp?.close();
  smtp = undefined;
});

describe(`stopping the server (${databaseKind})`, () => {
  it('finishes the e-mail under way before closing the database, and sends it once', async () => {
    smtp = await startSmtpCatcher();
    smtp.state.acceptAfterMs = 400;
    const config = testConfig({ SMTP_URL: smtp.url, MAIL_FROM: 'Vigie <equipe@vigie.test>' });
    const logger = createLogger({ logLevel: 'silent' });

    const first = await createServer(config, logger);
    const user = await first.services.users.createAccount({
      email: `arret-${randomUUID()}@vigie.test`,
      password: 'Mdp-arret-propre-1',
      organizationName: `Arrêt ${randomUUID()}`,
    });
    const organizationId = user.organization.id;
    await first.services.notifications.sendEmail({
      organizationId,
      to: 'responsable@vigie.test',
      subject: 'Relevé du soir',
      text: 'Le relevé du soir est prêt.',
      idempotencyKey: `arret-${randomUUID()}`,
    });
    // The stop comes while the SMTP server is still taking the message.
    await smtp.receiving;
    expect(smtp.received).toHaveLength(0);
    await first.close();
    expect(smtp.received).toHaveLength(1);

    // The next start finds it sent, and sends nothing again.
    const second = await createServer(config, logger);
    try {
      const outbox = await second.services.notifications.outbox(organizationId);
      expect(outbox.map((message) => message.status)).toEqual(['sent']);
    } finally {
      await second.close();
    }
    expect(smtp.received).toHaveLength(1);
  });
});
