import { ChevronRight } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { breadcrumbTrail } from './pages';

/**
 * Where the page shown sits: the pages above it as links, itself last. Its parent is the page the
 * person came from when the link that opened it said so (a sensor opened from an alert leads back
 * to the alert), else the page's usual parent. None on the dashboard, nor on a page with its own
 * way back.
 */
export function Breadcrumbs() {
  const { pathname, state } = useLocation();
  const trail = breadcrumbTrail(pathname, state);
  if (!trail) return null;
  return (
    <nav aria-label="Fil d’Ariane" className="-mt-2 mb-4 sm:mb-6">
      <ol className="flex flex-wrap items-center gap-x-1 text-sm">
        {trail.map((crumb, index) => (
          <li key={`${index}-${crumb.label}`} className="flex min-w-0 items-center gap-x-1">
            {index > 0 && <ChevronRight className="size-3.5 shrink-0 text-slate-500" aria-hidden="true" />}
            {crumb.path === null ? (
              <span
                aria-current={index === trail.length - 1 ? 'page' : undefined}
                className="inline-flex min-h-11 items-center font-medium [overflow-wrap:anywhere] text-slate-200"
              >
                {crumb.label}
              </span>
            ) : (
              <Link
                to={crumb.path}
                className="inline-flex min-h-11 items-center rounded-lg font-medium [overflow-wrap:anywhere] text-cyan-200 underline-offset-4 hover:text-cyan-100 hover:underline"
              >
                {crumb.label}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
