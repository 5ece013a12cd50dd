import { PRODUCT_NAME } from '@/config/constants';
import { AlertList } from '@/features/alerts/components/alert-list';
import { EmailNotice } from '@/features/alerts/components/email-notice';
import { NotificationPolicyForm } from '@/features/alerts/components/notification-policy-form';
import { useSites } from '@/features/sites/api/get-sites';
import { usePermissions } from '@/lib/permissions';
import { useSensorNames, useSensorReadings } from '../use-sensor-names';

/** /dashboard/alertes: every alert of the organization, active first. */
export default function AlertsRoute() {
  const sites = useSites();
  const sensorName = useSensorNames();
  const readingOf = useSensorReadings();
  // Who is warned, and how, is set by admins and managers.
  const { manage } = usePermissions();
  return (
    <>
      <title>{`Alertes · ${PRODUCT_NAME}`}</title>
      <h1 className="mb-2 text-3xl font-bold tracking-tight text-white">Alertes</h1>
      <p className="mb-6 text-slate-300">Ce qui sort des limites, qui s’en occupe et ce qui a été fait.</p>
      <EmailNotice />
      <AlertList sites={sites.data ?? []} sensorName={sensorName} readingOf={readingOf} />
      {manage && (
        <div className="mt-10">
          <NotificationPolicyForm />
        </div>
      )}
    </>
  );
}
