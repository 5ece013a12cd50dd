import { LayoutDashboard, LogIn, Menu, X } from 'lucide-react';
import { useEffect, useId, useState, type MouseEvent } from 'react';
import { Link } from 'react-router';
import { BrandLogo } from '@/components/brand-logo';
import { PRODUCT_NAME } from '@/config/constants';

const placeholderLinks = ['Solutions', 'Ressources', 'Entreprise', 'Tarifs'];

const preventNavigation = (event: MouseEvent<HTMLAnchorElement>) => event.preventDefault();

export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  const close = () => setMenuOpen(false);

  return (
    <header className="sticky top-0 z-30 border-b border-white/5 bg-slate-950/70 backdrop-blur-xl">
      <nav aria-label="Navigation principale" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-6 px-5 sm:px-8">
        <Link to="/" className="rounded-xl" aria-label={`${PRODUCT_NAME}, accueil`}>
          <BrandLogo />
        </Link>

        <ul className="hidden items-center gap-1 md:flex">
          {placeholderLinks.map((label) => (
            <li key={label}>
              <a
                href="#"
                onClick={preventNavigation}
                className="rounded-lg px-3 py-2 text-sm font-medium text-slate-300 transition-colors hover:bg-white/5 hover:text-white"
              >
                {label}
              </a>
            </li>
          ))}
        </ul>

        <div className="hidden items-center gap-2 md:flex">
          <Link
            to="/dashboard"
            className="rounded-lg px-3 py-2 text-sm font-medium text-slate-200 transition-colors hover:bg-white/5 hover:text-white"
          >
            Tableau de bord
          </Link>
          <Link
            to="/login"
            className="inline-flex items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-slate-950 transition-colors hover:bg-cyan-100"
          >
            <LogIn className="size-4" aria-hidden="true" />
            Connexion
          </Link>
        </div>

        <button
          type="button"
          className="grid size-10 place-items-center rounded-lg text-slate-200 transition-colors hover:bg-white/10 md:hidden"
          aria-label="Menu"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X className="size-6" aria-hidden="true" /> : <Menu className="size-6" aria-hidden="true" />}
        </button>
      </nav>

      <div id={menuId} hidden={!menuOpen} className="border-t border-white/5 bg-slate-950/95 md:hidden">
        <ul className="mx-auto max-w-6xl space-y-1 px-5 py-4">
          {placeholderLinks.map((label) => (
            <li key={label}>
              <a
                href="#"
                onClick={(event) => {
                  preventNavigation(event);
                  close();
                }}
                className="block rounded-lg px-3 py-3 text-base font-medium text-slate-200 hover:bg-white/5"
              >
                {label}
              </a>
            </li>
          ))}
          <li className="grid gap-2 pt-3 sm:grid-cols-2">
            <Link
              to="/dashboard"
              onClick={close}
              className="flex items-center justify-center gap-2 rounded-lg border border-white/10 px-4 py-3 text-base font-medium text-slate-100 hover:bg-white/5"
            >
              <LayoutDashboard className="size-5" aria-hidden="true" />
              Tableau de bord
            </Link>
            <Link
              to="/login"
              onClick={close}
              className="flex items-center justify-center gap-2 rounded-lg bg-white px-4 py-3 text-base font-semibold text-slate-950 hover:bg-cyan-100"
            >
              <LogIn className="size-5" aria-hidden="true" />
              Connexion
            </Link>
          </li>
        </ul>
      </div>
    </header>
  );
}
