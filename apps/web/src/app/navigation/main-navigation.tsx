import { Ellipsis, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { reportsLinkLabel, UnsignedReportsBadge, useUnsignedReports } from '@/features/reports/components/unsigned-reports';
import { currentness, navSections, useNavAccess, type NavItem, type NavSections } from './nav-items';

/** The menus' entries for the signed-in person, and how many reports wait for a signature. */
function useNavigation(): { sections: NavSections; unsigned: number } {
  const access = useNavAccess();
  const unsigned = useUnsignedReports(access.readReports);
  return { sections: navSections(access), unsigned };
}

/** What the link of an entry says to a screen reader, when it says more than its text. */
const ariaLabelOf = (item: NavItem, unsigned: number) => (item.key === 'reports' ? reportsLinkLabel(unsigned) : undefined);

/** One entry of the side menu and of the « Plus » sheet: its icon, its name, the page shown marked. */
function EntryLink({ item, unsigned, onChoose }: { item: NavItem; unsigned: number; onChoose?: () => void }) {
  const { pathname } = useLocation();
  const current = currentness(item, pathname);
  const Icon = item.icon;
  return (
    <Link
      to={item.path}
      aria-current={current || undefined}
      aria-label={ariaLabelOf(item, unsigned)}
      onClick={onChoose}
      className={`flex min-h-11 items-center gap-3 rounded-xl px-3 text-sm font-medium transition-colors ${
        current ? 'bg-cyan-400/10 text-cyan-100 ring-1 ring-cyan-300/30 ring-inset' : 'text-slate-300 hover:bg-white/5 hover:text-white'
      }`}
    >
      <Icon className={`size-5 shrink-0 ${current ? 'text-cyan-300' : 'text-slate-400'}`} aria-hidden="true" />
      <span className="min-w-0 flex-1">{item.label}</span>
      {item.key === 'reports' && <UnsignedReportsBadge count={unsigned} />}
    </Link>
  );
}

/** The entries after the four of every day, then the technical pages under their own name. */
function OtherEntries({ sections, unsigned, onChoose }: { sections: NavSections; unsigned: number; onChoose?: () => void }) {
  const integrationsId = useId();
  return (
    <>
      <ul className="space-y-1">
        {sections.secondary.map((item) => (
          <li key={item.key}>
            <EntryLink item={item} unsigned={unsigned} {...(onChoose ? { onChoose } : {})} />
          </li>
        ))}
      </ul>
      {sections.integrations.length > 0 && (
        <div className="mt-4 border-t border-white/10 pt-4">
          <p id={integrationsId} className="px-3 pb-2 text-xs font-semibold tracking-wider text-slate-400 uppercase">
            Intégrations
          </p>
          <ul aria-labelledby={integrationsId} className="space-y-1">
            {sections.integrations.map((item) => (
              <li key={item.key}>
                <EntryLink item={item} unsigned={unsigned} {...(onChoose ? { onChoose } : {})} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/**
 * From 1024 px: the menu on the left of every signed-in page, kept in view while the page scrolls.
 * Below, it is not rendered visibly (`hidden`), so it leaves the accessibility tree to the bottom bar.
 */
export function SideMenu() {
  const { sections, unsigned } = useNavigation();
  return (
    <nav
      aria-label="Menu principal"
      className="sticky top-16 hidden max-h-[calc(100dvh-4rem)] w-60 shrink-0 flex-col self-start overflow-y-auto py-8 pr-2 lg:flex"
    >
      <ul className="space-y-1">
        {sections.primary.map((item) => (
          <li key={item.key}>
            <EntryLink item={item} unsigned={unsigned} />
          </li>
        ))}
      </ul>
      <div className="mt-4 border-t border-white/10 pt-4">
        <OtherEntries sections={sections} unsigned={unsigned} />
      </div>
    </nav>
  );
}

const barItemClass = (current: boolean) =>
  `relative flex min-h-16 w-full flex-col items-center justify-center gap-1 px-1 pt-1 text-center text-[0.6875rem] leading-tight font-medium transition-colors ${
    current
      ? 'text-cyan-100 before:absolute before:inset-x-3 before:top-0 before:h-0.5 before:rounded-full before:bg-cyan-300'
      : 'text-slate-300 hover:text-white'
  }`;

/** The screen width from which the side menu replaces the bottom bar (Tailwind's `lg`). */
const WIDE = '(min-width: 64rem)';

/**
 * Below 1024 px: a bar fixed at the foot of the screen with the four pages of every day and « Plus »,
 * which opens a sheet with the others. The sheet closes on Échap, on its button, on its backdrop
 * and once an entry is chosen; the focus then returns to « Plus ».
 */
export function BottomBar() {
  const { sections, unsigned } = useNavigation();
  const { pathname, key } = useLocation();
  // Open for one location: choosing an entry (or going back) closes the sheet by itself.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === key;
  const close = () => setOpenAt(null);
  const sheetRef = useRef<HTMLDialogElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const sheetId = useId();
  const titleId = useId();
  const inSheet = [...sections.secondary, ...sections.integrations].some((item) => currentness(item, pathname));

  useEffect(() => {
    const sheet = sheetRef.current;
    if (!sheet) return;
    if (open && !sheet.open) {
      if (typeof sheet.showModal === 'function') sheet.showModal();
      else sheet.setAttribute('open', '');
    } else if (!open && sheet.open) {
      if (typeof sheet.close === 'function') sheet.close();
      else sheet.removeAttribute('open');
      buttonRef.current?.focus();
    }
  }, [open]);

  // A screen turned or widened to the side menu's width: the sheet, hidden there, must not keep the page modal.
  useEffect(() => {
    if (!open || typeof window.matchMedia !== 'function') return;
    const wide = window.matchMedia(WIDE);
    const onChange = () => {
      if (wide.matches) setOpenAt(null);
    };
    wide.addEventListener('change', onChange);
    return () => wide.removeEventListener('change', onChange);
  }, [open]);

  return (
    <nav
      aria-label="Navigation principale"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-white/10 bg-slate-950/90 pb-[env(safe-area-inset-bottom)] backdrop-blur-xl lg:hidden"
    >
      <ul className="mx-auto flex max-w-xl">
        {sections.primary.map((item) => {
          const current = currentness(item, pathname);
          const Icon = item.icon;
          return (
            <li key={item.key} className="min-w-0 flex-1">
              <Link
                to={item.path}
                aria-current={current || undefined}
                aria-label={ariaLabelOf(item, unsigned)}
                className={barItemClass(Boolean(current))}
              >
                <span className="relative">
                  <Icon className="size-5" aria-hidden="true" />
                  {item.key === 'reports' && <UnsignedReportsBadge count={unsigned} className="absolute -top-1.5 left-3.5" />}
                </span>
                {item.label}
              </Link>
            </li>
          );
        })}
        <li className="min-w-0 flex-1">
          <button
            ref={buttonRef}
            type="button"
            aria-haspopup="dialog"
            aria-expanded={open}
            aria-controls={sheetId}
            onClick={() => setOpenAt(key)}
            className={barItemClass(inSheet)}
          >
            <Ellipsis className="size-5" aria-hidden="true" />
            Plus
          </button>
        </li>
      </ul>
      <dialog
        ref={sheetRef}
        id={sheetId}
        aria-labelledby={titleId}
        onCancel={(event) => {
          event.preventDefault();
          close();
        }}
        // A click on the backdrop reaches the dialog itself; one inside reaches its content.
        onClick={(event) => {
          if (event.target === event.currentTarget) close();
        }}
        className="mx-0 mt-auto mb-0 max-h-[85dvh] w-full max-w-none overflow-y-auto rounded-t-3xl border border-b-0 border-white/10 bg-slate-900 p-0 text-slate-100 shadow-2xl shadow-black/50 backdrop:bg-slate-950/70 backdrop:backdrop-blur-sm lg:hidden"
      >
        <div className="px-4 pt-3 pb-[calc(1rem+env(safe-area-inset-bottom))]">
          <div className="mb-2 flex items-center justify-between gap-3 pl-3">
            <h2 id={titleId} className="text-base font-semibold text-white">
              Autres pages
            </h2>
            <button
              type="button"
              onClick={close}
              aria-label="Fermer"
              className="grid size-11 shrink-0 place-items-center rounded-xl text-slate-300 hover:bg-white/5 hover:text-white"
            >
              <X className="size-5" aria-hidden="true" />
            </button>
          </div>
          <OtherEntries sections={sections} unsigned={unsigned} onChoose={close} />
        </div>
      </dialog>
    </nav>
  );
}
