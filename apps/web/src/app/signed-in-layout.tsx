import { useQueryClient } from '@tanstack/react-query';
import type { Site } from '@vigie/contract';
import { User as UserIcon } from 'lucide-react';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { AnimatedBackground } from '@/components/animated-background';
import { BrandLogo } from '@/components/brand-logo';
import { showToast, Toaster } from '@/components/ui/toast';
import { applyAlertEvent } from '@/features/alerts/apply-alert-event';
import { AlertBell } from '@/features/alerts/components/alert-bell';
import { alertNews } from '@/features/alerts/components/alert-value';
import { SignOutButton } from '@/features/auth/components/sign-out-button';
import { ErrorPage } from '@/features/errors/components/error-page';
import { ERROR_CONTENT } from '@/features/errors/error-content';
import { applyLiveEvents } from '@/features/devices/apply-live-event';
import { LiveIndicator } from '@/features/live/live-indicator';
import { useLiveStream } from '@/features/live/use-live-stream';
import { OfflineBanner } from '@/features/offline/components/offline-banner';
import { useReadAgainWhenBack } from '@/features/offline/use-read-again-when-back';
import { applyReportEvent, reportReadyMessage } from '@/features/reports/apply-report-event';
import { siteKeys } from '@/features/sites/api/get-sites';
import { usePendingAnswerSender } from '@/features/tasks/api/use-pending-answers';
import { useAuth } from '@/lib/auth';
import { type Batcher, createBatcher } from '@/lib/frame-batcher';
import type { SseMessage } from '@/lib/sse-parser';
import type { SignedInOutletContext } from './signed-in-outlet';
import { Breadcrumbs } from './navigation/breadcrumbs';
import { BottomBar, SideMenu } from './navigation/main-navigation';
import { planAlertLabel } from '@/features/alerts/plan-alert';
import { deletedDeviceName, useSensorNameFetch } from './use-sensor-names';

/**
 * Frame of every signed-in page. An admin whose organization requires two-factor authentication
 * and who has not turned it on yet only reaches « Mon compte », where it is turned on: the server
 * refuses everything else until then, the live stream included.
 */
export default function SignedInLayout() {
  const { user } = useAuth();
  return user?.totpSetupRequired ? <TotpSetupLayout /> : <FullLayout />;
}

function AccountLink({ displayName, organization }: { displayName: string; organization?: string }) {
  return (
    <Link
      to="/dashboard/compte"
      aria-label={`Mon compte\u202F: ${displayName}`}
      className="flex min-w-0 items-center gap-2.5 rounded-xl text-sm hover:opacity-90"
    >
      <span className="grid size-8 shrink-0 place-items-center rounded-full bg-gradient-to-br from-cyan-400/30 to-violet-500/30 text-cyan-100">
        <UserIcon className="size-4" aria-hidden="true" />
      </span>
      {/* On a phone the name has a row of its own and wraps rather than being cut; beside the rest from 640 px, it is shortened. */}
      <span className="min-w-0">
        <span className="block font-medium [overflow-wrap:anywhere] text-white sm:truncate">{displayName}</span>
        {organization && <span className="block text-xs [overflow-wrap:anywhere] text-slate-400 sm:truncate">{organization}</span>}
      </span>
    </Link>
  );
}

const displayNameOf = (user: { name?: string | null; email?: string } | null) => user?.name?.trim() || user?.email?.trim() || 'Utilisateur';

function TotpSetupLayout() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  if (pathname !== '/dashboard/compte') return <Navigate to="/dashboard/compte" replace />;
  return (
    <div className="flex min-h-dvh flex-col">
      <AnimatedBackground drift={false} />
      <header className="sticky top-0 z-30 border-b border-white/5 bg-slate-950/75 backdrop-blur-xl">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-5 py-3 sm:h-16 sm:flex-nowrap sm:gap-x-4 sm:px-8 sm:py-0">
          <Link to="/" className="shrink-0 rounded-xl">
            <BrandLogo />
          </Link>
          <div className="ml-auto flex min-w-0 items-center gap-3 sm:gap-4">
            <AccountLink displayName={displayNameOf(user)} organization={user?.organization?.name} />
            <SignOutButton />
          </div>
        </div>
        <OfflineBanner />
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 px-5 py-8 sm:px-8 sm:py-10">
        <Suspense fallback={<p className="sr-only">Chargement…</p>}>
          <Outlet context={{ showNotFound: () => undefined } satisfies SignedInOutletContext} />
        </Suspense>
      </main>
    </div>
  );
}

/**
 * One header (product, user, live indicator, sign-out, and « Hors connexion » while offline), the
 * navigation (a side menu from 1024 px, a bottom bar below) and the one live stream, kept while the
 * user moves between pages.
 */
function FullLayout() {
  const { user } = useAuth();
  const owner = user?.id ?? '';
  const queryClient = useQueryClient();
  const { key } = useLocation();
  // A page whose subject does not exist shows the full 404 page, for this location only.
  const [notFoundAt, setNotFoundAt] = useState<string | null>(null);
  const outletContext: SignedInOutletContext = { showNotFound: () => setNotFoundAt(key) };
  const displayName = displayNameOf(user);
  const navigate = useNavigate();
  const sensorName = useSensorNameFetch();
  const siteOf = useCallback(
    (siteId: string | null) => queryClient.getQueryData<Site[]>(siteKeys.list(owner))?.find((site) => site.id === siteId),
    [queryClient, owner],
  );
  // Readings and device changes reach the lists once per frame, however many arrived in between.
  // Declared before the stream's own effect, so it exists before the first event.
  const deviceEvents = useRef<Batcher<SseMessage> | null>(null);
  useEffect(() => {
    const batcher = createBatcher<SseMessage>((messages) => applyLiveEvents(queryClient, owner, messages));
    deviceEvents.current = batcher;
    return () => {
      batcher.flush();
      batcher.dispose();
    };
  }, [queryClient, owner]);
  const onMessage = useCallback(
    (message: SseMessage) => {
      deviceEvents.current?.push(message);
      const alert = applyAlertEvent(queryClient, owner, message);
      // A new alert interrupts politely: the bell and the cards turn red, and a toast says where.
      // It names the sensor or transmitter (asked of the server when this page has not loaded the list) and its shop.
      if (alert?.action === 'opened') {
        const { id } = alert.alert;
        const site = siteOf(alert.alert.siteId);
        const news = alertNews(alert.alert, Date.now(), site?.timezone);
        const { sensorId, deviceKind } = alert.alert;
        void (sensorId ? sensorName(sensorId, deviceKind) : Promise.resolve(planAlertLabel(alert.alert))).then((name) =>
          showToast({
            message: `Alerte\u202F: ${name ?? deletedDeviceName(deviceKind)}${site ? ` (${site.name})` : ''} — ${news}`,
            action: { label: 'Voir', onClick: () => void navigate(`/dashboard/alertes/${id}`) },
          }),
        );
      }
      // A report made by the monthly job or by someone else: the in-app notice that it is ready.
      const report = applyReportEvent(queryClient, owner, message);
      const ready = report && reportReadyMessage(report, owner);
      if (report && ready) {
        const site = encodeURIComponent(report.report.siteId);
        showToast({ message: ready, action: { label: 'Voir', onClick: () => void navigate(`/dashboard/rapports?site=${site}`) } });
      }
    },
    [queryClient, owner, sensorName, siteOf, navigate],
  );
  const live = useLiveStream({ onMessage });
  useReadAgainWhenBack();
  // Answers given without network leave the phone as soon as it is back, whatever screen is open.
  usePendingAnswerSender();

  if (notFoundAt === key) return <ErrorPage content={ERROR_CONTENT['404']} />;

  return (
    <div className="flex min-h-dvh flex-col">
      <AnimatedBackground drift={false} />
      <header className="sticky top-0 z-30 border-b border-white/5 bg-slate-950/75 backdrop-blur-xl">
        {/* On a phone the user and sign-out move to a second row, so that nothing has to be cut. */}
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1.5 px-4 py-2 sm:h-16 sm:flex-nowrap sm:gap-x-4 sm:px-8 sm:py-0">
          <Link to="/" className="shrink-0 rounded-xl">
            <BrandLogo />
          </Link>
          <div className="ml-auto flex items-center gap-3">
            <LiveIndicator status={live} compact />
            <AlertBell />
          </div>
          <div className="flex w-full min-w-0 items-center justify-between gap-3 border-t border-white/5 pt-1.5 sm:w-auto sm:gap-4 sm:border-0 sm:pt-0">
            <AccountLink displayName={displayName} organization={user?.organization?.name} />
            <SignOutButton />
          </div>
        </div>
        <OfflineBanner />
      </header>
      <div className="mx-auto flex w-full max-w-7xl flex-1 lg:gap-8 lg:px-8">
        <SideMenu />
        {/* On a phone the foot of the page stays clear of the bottom bar (and of the home indicator). */}
        <main className="w-full min-w-0 flex-1 px-4 pt-6 pb-[calc(6rem+env(safe-area-inset-bottom))] sm:px-8 sm:pt-10 lg:px-0 lg:pb-10">
          <Breadcrumbs />
          <Suspense fallback={<p className="sr-only">Chargement…</p>}>
            <Outlet context={outletContext} />
          </Suspense>
        </main>
      </div>
      <BottomBar />
      {/* Above the bottom bar on a phone, so that a toast never hides it nor is hidden by it. */}
      <Toaster placement="bottom-[calc(4rem+env(safe-area-inset-bottom))] lg:bottom-0" />
    </div>
  );
}
