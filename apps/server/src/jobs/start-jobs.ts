import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/connection-errors.ts';
import { OFFLINE_CHECK_SECONDS } from '../modules/devices/offline-devices.ts';
import { MQTT_TICK_SECONDS } from '../modules/lorawan/mqtt-bridge.ts';
import type { Services } from '../services.ts';

const HOURLY_MS = 3600 * 1000;
/** How often the alert engine looks at the clock, and the notifier at what is due. */
export const ALERT_CLOCK_SECONDS = 15;
export const NOTIFY_SECONDS = 10;
/** How often the tasks of the food-safety plan and the timed processes look at the clock: a task is missed within 15 s of its grace. */
export const TASK_CLOCK_SECONDS = 15;
/**
 * How often the monthly reports are looked for: with the quarter of an hour's grace after midnight
 * on the 1st, a shop's report is there within 25 minutes (an hourly run made it up to two hours late).
 */
export const MONTHLY_REPORT_SECONDS = 10 * 60;
const FIRST_HOURLY_RUN_MS = 60_000;

/** Periodic jobs of a running server (each module's `jobs`), on the system clock; returns a function that stops them. */
export function startJobs(
  services: Services,
  options: { retentionDays: number; insightsIntervalSeconds: number; logger: Logger },
): () => void {
  const {
    devices,
    telemetry,
    reports,
    insights: analysis,
    alerts,
    notifications,
    rateLimits: limits,
    lorawan,
    tasks,
    organizations,
  } = services.modules;
  const run = (name: string, job: () => Promise<unknown>) => () => {
    job().catch((error: unknown) => {
      if (isDatabaseUnavailable(error)) options.logger.warn({ job: name }, 'Tâche reportée : base de données indisponible');
      else options.logger.error({ err: error, job: name }, 'Échec d’une tâche périodique');
    });
  };
  const offline = run('offline', () => devices.jobs.announceOffline());
  const retention = run('retention', async () => {
    const deleted = await telemetry.jobs.enforceRetention();
    if (deleted > 0) options.logger.info({ deleted, retentionDays: options.retentionDays }, 'Lectures anciennes supprimées');
  });
  const purge = run('purge', async () => {
    const purged = await devices.jobs.purgeTrash();
    if (purged > 0) options.logger.info({ purged }, 'Appareils de la corbeille supprimés définitivement');
  });
  // On the 1st of each month (the site's clock), the report of the month before; once across instances.
  const monthlyReports = run('monthly-reports', async () => {
    const made = await reports.jobs.makeMonthly();
    if (made.length > 0) options.logger.info({ reports: made.length }, 'Rapports HACCP mensuels établis');
  });
  // Sensors whose verification falls due within 30 days: their site's people are reminded once.
  const calibrationReminders = run('calibration-reminders', () => reports.jobs.remindCalibrations());
  // From 7 h on each person's clock, yesterday's alerts for those who asked; once a day across instances.
  const digests = run('daily-digests', () => notifications.jobs.digests());
  // Predictive analysis of the sensors that report, in a worker thread; one instance at a time.
  const insights = run('insights', () => analysis.jobs.refresh());
  const alertClock = run('alert-clock', () => alerts.jobs.clock());
  const notify = run('notifications', () => notifications.jobs.notify());
  // The plan's next tasks, the ones past their grace turned missed, the processes past their deadline failed.
  const taskClock = run('task-clock', () => tasks.jobs.clock());
  // Counters of rate limits whose window is long over (PostgreSQL only); idempotent across instances.
  const rateLimits = run('rate-limits', () => limits.jobs.purgeExpired());
  // The Things Stack's MQTT servers: each integration's connection held by one instance.
  const mqttIntegrations = run('lorawan-mqtt', () => lorawan.jobs.mqtt());
  mqttIntegrations();
  // Client organizations whose erasure is due (30 days after it was asked): each by one instance.
  const erasures = run('organization-erasure', async () => {
    const erased = await organizations.jobs.eraseDue();
    if (erased.length > 0) options.logger.info({ organizations: erased }, 'Organisations effacées');
  });
  const hourly = () => {
    erasures();
    retention();
    purge();
    calibrationReminders();
    digests();
    rateLimits();
  };
  const timers = [
    setInterval(offline, OFFLINE_CHECK_SECONDS * 1000),
    // Alerts think without a message: delays that elapse in silence, sensors that fall silent.
    setInterval(alertClock, ALERT_CLOCK_SECONDS * 1000),
    setInterval(notify, NOTIFY_SECONDS * 1000),
    setInterval(taskClock, TASK_CLOCK_SECONDS * 1000),
    setInterval(mqttIntegrations, MQTT_TICK_SECONDS * 1000),
    ...(options.insightsIntervalSeconds > 0 ? [setInterval(insights, options.insightsIntervalSeconds * 1000)] : []),
    setTimeout(hourly, FIRST_HOURLY_RUN_MS),
    setTimeout(monthlyReports, FIRST_HOURLY_RUN_MS),
    setInterval(monthlyReports, MONTHLY_REPORT_SECONDS * 1000),
    setInterval(hourly, HOURLY_MS),
  ];
  for (const timer of timers) timer.unref();
  return () => {
    for (const timer of timers) clearTimeout(timer);
  };
}
