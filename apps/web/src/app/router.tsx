import { lazy, Suspense } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { ProtectedRoute } from '@/features/auth/components/protected-route';
import { AppErrorBoundary } from '@/features/errors/components/app-error-boundary';

// One chunk per screen: the landing page never downloads the dashboard.
const LandingRoute = lazy(() => import('./routes/landing'));
const LoginRoute = lazy(() => import('./routes/login'));
const DashboardRoute = lazy(() => import('./routes/dashboard'));
const DeviceDetailRoute = lazy(() => import('./routes/device-detail'));
const InstallationRoute = lazy(() => import('./routes/installation'));
const ErrorRoute = lazy(() => import('./routes/error'));
const NotFoundRoute = lazy(() => import('./routes/not-found'));

export function AppRoutes() {
  const location = useLocation();

  return (
    <AppErrorBoundary resetKey={location.key}>
      <Suspense fallback={<PageLoader />}>
        <Routes>
          <Route path="/" element={<LandingRoute />} />
          <Route path="/login" element={<LoginRoute />} />
          <Route
            path="/dashboard"
            element={
              <ProtectedRoute>
                <DashboardRoute />
              </ProtectedRoute>
            }
          />
          <Route
            path="/dashboard/capteurs/:id"
            element={
              <ProtectedRoute>
                <DeviceDetailRoute kind="sensor" />
              </ProtectedRoute>
            }
          />
          <Route
            path="/dashboard/emetteurs/:id"
            element={
              <ProtectedRoute>
                <DeviceDetailRoute kind="emitter" />
              </ProtectedRoute>
            }
          />
          <Route
            path="/dashboard/installation"
            element={
              <ProtectedRoute>
                <InstallationRoute />
              </ProtectedRoute>
            }
          />
          <Route path="/error/:code" element={<ErrorRoute />} />
          <Route path="*" element={<NotFoundRoute />} />
        </Routes>
      </Suspense>
    </AppErrorBoundary>
  );
}
