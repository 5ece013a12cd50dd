import { type ComponentType, createElement, lazy, type ReactElement, Suspense, useState } from 'react';
import { matchPath, Route, Routes, useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { ProtectedRoute } from '@/features/auth/components/protected-route';
import { AppErrorBoundary } from '@/features/errors/components/app-error-boundary';
import { useSignedInTheme } from '@/lib/theme';

// The landing page is in the entry chunk: its first paint is its content, not « Chargement… ».
// Every other screen is a chunk of its own: the landing page never downloads the dashboard.
import LandingRoute from './routes/landing';
const LoginRoute = lazy(() => import('./routes/login'));
const LoginSsoRoute = lazy(() => import('./routes/login-sso'));
const ForgotPasswordRoute = lazy(() => import('./routes/forgot-password'));
const ResetPasswordRoute = lazy(() => import('./routes/reset-password'));

type Preloadable<P extends object> = { Screen: ComponentType<P>; preload: () => Promise<unknown> };

/**
 * A lazy screen that can be loaded ahead. Once its code is there it renders at once: React's
 * `lazy` would still suspend on first render, and React holds a suspended screen back for up to
 * 300 ms before showing it.
 */
function preloadable<P extends object = Record<string, never>>(load: () => Promise<{ default: ComponentType<P> }>): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  const preload = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(preload);
  // Chosen once per mount: switching from the lazy wrapper to the component would remount the screen.
  const Screen = (props: P) => {
    const [type] = useState<ComponentType<P>>(() => loaded ?? (Lazy as ComponentType<P>));
    return createElement(type, props);
  };
  return { Screen, preload };
}

/** The code of the page opened with the frame (see {@link preloadSignedInCode}), once loaded. */
let pageCodeWithFrame: Promise<unknown> = Promise.resolve();
// The frame waits for the page it opens with: both then render in one go. Were the frame shown
// first, the page's screen would suspend inside it, and React holds a screen revealed after a
// fallback back for up to 300 ms. A page whose code fails to load does not hold the frame back:
// its own error shows inside it.
const signedInLayout = preloadable(async () => {
  const [module] = await Promise.all([import('./signed-in-layout'), pageCodeWithFrame.catch(() => undefined)]);
  return module;
});
const SignedInLayout = signedInLayout.Screen;
const dashboard = preloadable(() => import('./routes/dashboard'));
const deviceDetail = preloadable(() => import('./routes/device-detail'));
const installation = preloadable(() => import('./routes/installation'));
const installDevice = preloadable(() => import('./routes/install-device'));
const trash = preloadable(() => import('./routes/trash'));
const alerts = preloadable(() => import('./routes/alerts'));
const alertDetail = preloadable(() => import('./routes/alert-detail'));
const sites = preloadable(() => import('./routes/sites'));
const reports = preloadable(() => import('./routes/reports'));
const checks = preloadable(() => import('./routes/checks'));
const tasks = preloadable(() => import('./routes/tasks'));
const plan = preloadable(() => import('./routes/plan'));
const account = preloadable(() => import('./routes/account'));
const team = preloadable(() => import('./routes/team'));
const journal = preloadable(() => import('./routes/journal'));
const network = preloadable(() => import('./routes/network'));
const lorawan = preloadable(() => import('./routes/lorawan'));
const InvitationRoute = lazy(() => import('./routes/invitation'));
const ErrorRoute = lazy(() => import('./routes/error'));
const NotFoundRoute = lazy(() => import('./routes/not-found'));

type SignedInPage = {
  /** Under /dashboard; '' for the dashboard itself (the index route). */
  path: string;
  code: { preload: () => Promise<unknown> };
  element: ReactElement;
};

/** The signed-in pages: one list for the routes and for loading a page's code ahead. */
const SIGNED_IN_PAGES: SignedInPage[] = [
  { path: '', code: dashboard, element: <dashboard.Screen /> },
  { path: 'capteurs/:id', code: deviceDetail, element: <deviceDetail.Screen kind="sensor" /> },
  { path: 'emetteurs/:id', code: deviceDetail, element: <deviceDetail.Screen kind="emitter" /> },
  { path: 'installation', code: installation, element: <installation.Screen /> },
  { path: 'installer', code: installDevice, element: <installDevice.Screen /> },
  { path: 'corbeille', code: trash, element: <trash.Screen /> },
  { path: 'alertes', code: alerts, element: <alerts.Screen /> },
  { path: 'alertes/:id', code: alertDetail, element: <alertDetail.Screen /> },
  { path: 'sites', code: sites, element: <sites.Screen /> },
  { path: 'rapports', code: reports, element: <reports.Screen /> },
  { path: 'controles', code: checks, element: <checks.Screen /> },
  { path: 'taches', code: tasks, element: <tasks.Screen /> },
  { path: 'plan', code: plan, element: <plan.Screen /> },
  { path: 'compte', code: account, element: <account.Screen /> },
  { path: 'equipe', code: team, element: <team.Screen /> },
  { path: 'journal', code: journal, element: <journal.Screen /> },
  { path: 'reseau', code: network, element: <network.Screen /> },
  { path: 'lorawan', code: lorawan, element: <lorawan.Screen /> },
];

/**
 * A returning user opening a signed-in page: the frame's code and the page's own load while the
 * session is being checked, rather than after it (the session, then the frame, then the screen).
 * The module loader keeps one copy, which the screens then find ready and render at once. The
 * page's data leaves even earlier (start-reads.ts). Signed-out pages load nothing more: the landing
 * page's entry stays free of the signed-in screens' code.
 */
export function preloadSignedInCode(pathname: string, hasSession: boolean): void {
  if (!hasSession || !matchPath({ path: '/dashboard', end: false }, pathname)) return;
  const page = SIGNED_IN_PAGES.find(({ path }) => matchPath(`/dashboard/${path}`, pathname));
  if (page) pageCodeWithFrame = page.code.preload();
  void signedInLayout.preload();
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
          <Route path="/login/sso" element={<LoginSsoRoute />} />
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
            {SIGNED_IN_PAGES.map(({ path, element }) =>
              path ? <Route key={path} path={path} element={element} /> : <Route key="" index element={element} />,
            )}
          </Route>
          <Route path="/error/:code" element={<ErrorRoute />} />
          <Route path="*" element={<NotFoundRoute />} />
        </Routes>
      </Suspense>
    </AppErrorBoundary>
  );
}
