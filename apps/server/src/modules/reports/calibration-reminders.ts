import type { Calibration, Site } from '@vigie/contract';
import type { CalibrationService } from '../telemetry/calibration-service.ts';
import type { OneEmail } from '../notifications/notification-service.ts';
import { formatDate, NBSP } from './report-format.ts';

/** The e-mail that reminds a site's people of a sensor's next verification. */
export function calibrationReminderEmail(
  sensor: { id: string; name: string },
  site: Pick<Site, 'name' | 'timezone'>,
  calibration: Calibration,
  options: { publicUrl: string; now: Date },
): { subject: string; text: string } {
  const due = calibration.nextDueAt ?? calibration.verifiedAt;
  const late = Date.parse(due) < options.now.getTime();
  const dueDate = formatDate(due, site.timezone);
  return {
    subject: `Vérification de capteur ${late ? 'en retard' : 'à prévoir'} — ${sensor.name} (${site.name})`,
    text: [
      late
        ? `La vérification du capteur «${NBSP}${sensor.name}${NBSP}» (${site.name}) était due le ${dueDate}.`
        : `La vérification du capteur «${NBSP}${sensor.name}${NBSP}» (${site.name}) est à faire avant le ${dueDate}.`,
      `Dernière vérification${NBSP}: le ${formatDate(calibration.verifiedAt, site.timezone)}, ${calibration.method}.`,
      'Comparez-le à un thermomètre de référence (EN 12830), puis notez la vérification et son certificat dans Vigie :'.replace(
        ' :',
        `${NBSP}:`,
      ),
      `${options.publicUrl}/dashboard/capteurs/${sensor.id}`,
    ].join('\n\n'),
  };
}

/**
 * Reminds each due verification once (REMINDER_DAYS ahead, or at once when already late), to the
 * people of the sensor's site: the outbox's key keeps two instances from sending it twice, and the
 * verification is marked once its e-mails are queued.
 */
export async function remindCalibrations(deps: {
  now: () => Date;
  publicUrl: string;
  calibrations: Pick<CalibrationService, 'dueForReminder' | 'markReminded'>;
  sensors: (organizationId: string) => Promise<{ id: string; name: string; siteId: string }[]>;
  sites: { get(organizationId: string, siteId: string): Promise<Site> };
  teamEmails: (organizationId: string, siteId: string) => Promise<string[]>;
  sendEmail: (message: OneEmail) => Promise<boolean>;
}): Promise<number> {
  let reminded = 0;
  const sensorsOf = new Map<string, Promise<{ id: string; name: string; siteId: string }[]>>();
  for (const { organizationId, calibration } of await deps.calibrations.dueForReminder()) {
    let sensors = sensorsOf.get(organizationId);
    if (!sensors) sensorsOf.set(organizationId, (sensors = deps.sensors(organizationId)));
    const sensor = (await sensors).find((each) => each.id === calibration.sensorId);
    if (sensor) {
      const site = await deps.sites.get(organizationId, sensor.siteId);
      const email = calibrationReminderEmail(sensor, site, calibration, { publicUrl: deps.publicUrl, now: deps.now() });
      for (const to of await deps.teamEmails(organizationId, sensor.siteId)) {
        await deps.sendEmail({ organizationId, to, idempotencyKey: `calibration:${calibration.id}:${to}`, ...email });
      }
      reminded += 1;
    }
    // A sensor in the trash is not reminded of.
    await deps.calibrations.markReminded(calibration.id);
  }
  return reminded;
}
