import type { AuditAction, Member } from '@vigie/contract';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS } from '@vigie/contract/values';
import { Search } from 'lucide-react';
import { useId } from 'react';
import type { AuditFilters } from '../api/get-audit';

const fieldClass =
  'rounded-xl border border-white/15 bg-slate-950/70 px-3 py-2 text-sm text-white placeholder:text-slate-400 focus:border-cyan-300/60 focus:outline-none focus-visible:ring-2 focus-visible:ring-cyan-300/40';
const labelClass = 'text-sm font-medium text-slate-200';

/** The actions in alphabetical order of their French names, for the « Action » choice. */
const ACTION_OPTIONS = [...AUDIT_ACTIONS].sort((a, b) => AUDIT_ACTION_LABELS[a].localeCompare(AUDIT_ACTION_LABELS[b], 'fr'));

type AuditFiltersProps = {
  filters: AuditFilters;
  onChange: (filters: AuditFilters) => void;
  /** Current members, to filter by author (people who left are found with « Rechercher »). */
  members: Member[];
};

/** Search, action, author and period of « Journal »; each change applies at once. */
export function AuditFiltersForm({ filters, onChange, members }: AuditFiltersProps) {
  const id = useId();
  const set = <K extends keyof AuditFilters>(key: K, value: AuditFilters[K]) => onChange({ ...filters, [key]: value });

  return (
    <form
      role="search"
      aria-label="Filtrer le journal"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5"
      onSubmit={(event) => event.preventDefault()}
    >
      <div className="flex min-w-0 flex-col gap-1.5 sm:col-span-2 lg:col-span-1">
        <label htmlFor={`${id}-q`} className={labelClass}>
          Rechercher
        </label>
        <div className="relative">
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <input
            id={`${id}-q`}
            type="search"
            value={filters.q}
            maxLength={100}
            placeholder="Nom, adresse e-mail…"
            onChange={(event) => set('q', event.target.value)}
            className={`${fieldClass} w-full pl-9`}
          />
        </div>
      </div>
      <div className="flex min-w-0 flex-col gap-1.5">
        <label htmlFor={`${id}-action`} className={labelClass}>
          Action
        </label>
        <select
          id={`${id}-action`}
          value={filters.action}
          onChange={(event) => set('action', event.target.value as AuditAction | '')}
          className={fieldClass}
        >
          <option value="">Toutes les actions</option>
          {ACTION_OPTIONS.map((action) => (
            <option key={action} value={action}>
              {AUDIT_ACTION_LABELS[action]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex min-w-0 flex-col gap-1.5">
        <label htmlFor={`${id}-actor`} className={labelClass}>
          Auteur
        </label>
        <select id={`${id}-actor`} value={filters.actorId} onChange={(event) => set('actorId', event.target.value)} className={fieldClass}>
          <option value="">Tout le monde</option>
          {members.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name ?? member.email}
            </option>
          ))}
        </select>
      </div>
      <div className="flex min-w-0 flex-col gap-1.5">
        <label htmlFor={`${id}-from`} className={labelClass}>
          Du
        </label>
        <input
          id={`${id}-from`}
          type="date"
          value={filters.from}
          max={filters.to || undefined}
          onChange={(event) => set('from', event.target.value)}
          className={fieldClass}
        />
      </div>
      <div className="flex min-w-0 flex-col gap-1.5">
        <label htmlFor={`${id}-to`} className={labelClass}>
          Au
        </label>
        <input
          id={`${id}-to`}
          type="date"
          value={filters.to}
          min={filters.from || undefined}
          onChange={(event) => set('to', event.target.value)}
          className={fieldClass}
        />
      </div>
    </form>
  );
}
