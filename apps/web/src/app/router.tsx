import { type ComponentType, createElement, lazy, Suspense, useState } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { ProtectedRoute } from '@/features/auth/components/protected-route';
import { AppErrorBoundary } from '@/features/errors/components/app-error-boundary';
import { useSignedInTheme } from '@/lib/theme';

// The landing page is in the entry chunk: its first paint is its content, not « Chargement… ».
// Every other screen is a chunk of its own: the landing page never downloads the dashboard.
import LandingRoute from './routes/landing';
const LoginRoute = lazy(() => import('./routes/login'));
const ForgotPasswordRoute = lazy(() => import('./routes/forgot-password'));
const ResetPasswordRoute = lazy(() => import('./routes/reset-password'));
/**
 * A lazy screen that can be loaded ahead. Once its code is there it renders at once: React's
 * `lazy` would still suspend on first render, and React holds a suspended screen back for up to
 * 300 ms before showing it.
 */
function preloadable(load: () => Promise<{ default: ComponentType }>) {
  let loaded: ComponentType | null = null;
  const preload = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(preload);
  // Chosen once per mount: switching from the lazy wrapper to the component would remount the screen.
  const Screen = () => {
    const [type] = useState<ComponentType>(() => loaded ?? Lazy);
    return createElement(type);
  };
  return { Screen, preload };
}

const signedInLayout = preloadable(() => import('./signed-in-layout'));
const dashboard = preloadable(() => import('./routes/dashboard'));
const SignedInLayout = signedInLayout.Screen;
const DashboardRoute = dashboard.Screen;
const DeviceDetailRoute = lazy(() => import('./routes/device-detail'));
const InstallationRoute = lazy(() => import('./routes/installation'));
const InstallDeviceRoute = lazy(() => import('./routes/install-device'));
const TrashRoute = lazy(() => import('./routes/trash'));
const AlertsRoute = lazy(() => import('./routes/alerts'));
const AlertDetailRoute = lazy(() => import('./routes/alert-detail'));
const SitesRoute = lazy(() => import('./routes/sites'));
const ReportsRoute = lazy(() => import('./routes/reports'));
const ChecksRoute = lazy(() => import('./routes/checks'));
const AccountRoute = lazy(() => import('./routes/account'));
const TeamRoute = lazy(() => import('./routes/team'));
const JournalRoute = lazy(() => import('./routes/journal'));
const NetworkRoute = lazy(() => import('./routes/network'));
const LorawanRoute = lazy(() => import('./routes/lorawan'));
const InvitationRoute = lazy(() => import('./routes/invitation'));
const ErrorRoute = lazy(() => import('./routes/error'));
const NotFoundRoute = lazy(() => import('./routes/not-found'));

/**
 * A returning user opening a signed-in page: the frame's code (and the dashboard's, on it) loads
 * while the session is being checked, rather than after. The module loader keeps one copy, which
 * the lazy components then find ready.
 */
export function preloadSignedInCode(pathname: string, hasSession: boolean): void {
  if (!hasSession || !pathname.startsWith('/dashboard')) return;
  void signedInLayout.preload();
  if (pathname === '/dashboard' || pathname === '/dashboard/') void dashboard.preload();
}

export function AppRoutes() {
  const location = useLocation();
  // The signed-in pages, their loading screen included, in the person's theme.
  useSignedInTheme(location.pathname.startsWith('/dashboard'));

  return (
    <AppErrorBoundary resetKey={location.key}>
      <Suspense fallback={<PageLoader />}>
        <Routes>
          <Route path="/" element={<LandingRoute />} />
          <Route path="/login" element={<LoginRoute />} />
          <Route path="/invitation" element={<InvitationRoute />} />
          <Route path="/mot-de-passe-oublie" element={<ForgotPasswordRoute />} />
          <Route path="/reinitialiser-mot-de-passe" element={<ResetPasswordRoute />} />
          {/* Every signed-in page shares one header and one live stream. */}
          <Route
            path="/dashboard"
            element={
              <ProtectedRoute>
                <SignedInLayout />
              </ProtectedRoute>
            }
          >
            <Route index element={<DashboardRoute />} />
            <Route path="capteurs/:id" element={<DeviceDetailRoute kind="sensor" />} />
            <Route path="emetteurs/:id" element={<DeviceDetailRoute kind="emitter" />} />
            <Route path="installation" element={<InstallationRoute />} />
            <Route path="installer" element={<InstallDeviceRoute />} />
            <Route path="corbeille" element={<TrashRoute />} />
            <Route path="alertes" element={<AlertsRoute />} />
            <Route path="alertes/:id" element={<AlertDetailRoute />} />
            <Route path="sites" element={<SitesRoute />} />
            <Route path="rapports" element={<ReportsRoute />} />
            <Route path="controles" element={<ChecksRoute />} />
            <Route path="compte" element={<AccountRoute />} />
            <Route path="equipe" element={<TeamRoute />} />
            <Route path="journal" element={<JournalRoute />} />
            <Route path="reseau" element={<NetworkRoute />} />
            <Route path="lorawan" element={<LorawanRoute />} />
          </Route>
          <Route path="/error/:code" element={<ErrorRoute />} />
          <Route path="*" element={<NotFoundRoute />} />
        </Routes>
      </Suspense>
    </AppErrorBoundary>
  );
}
