import type { Alert, AlertEvent } from '@vigie/contract';
import { ACTION_KIND_LABELS } from '@vigie/contract/values';
import { DetailSection } from '@/components/ui/section';
import { formatDateTime } from '@/lib/measure-format';
import { EVENT_LABELS, fateText } from '../alert-format';

type Who = (userId: string | null | undefined) => string | null;

function TimelineEntry({ event, who }: { event: AlertEvent; who: Who }) {
  const author = who(event.userId);
  // A guided action: its label, then the words written if any (the event's text is the label when none were).
  const action = event.type === 'action' ? (event.action ?? null) : null;
  const kindLabel = action ? ACTION_KIND_LABELS[action.kind] : null;
  const text = event.text && event.text !== kindLabel ? event.text : null;
  const tone =
    event.type === 'opened'
      ? 'bg-red-400'
      : event.type === 'resolved'
        ? 'bg-emerald-400'
        : event.type === 'action'
          ? 'bg-cyan-400'
          : event.type === 'acknowledged'
            ? 'bg-amber-300'
            : 'bg-slate-400';
  return (
    <li className="relative pl-6">
      <span className={`absolute left-0 top-1.5 size-2.5 rounded-full ${tone}`} aria-hidden="true" />
      <p className="text-sm font-semibold text-white">
        {EVENT_LABELS[event.type]}
        {author && <span className="font-normal text-slate-300"> — {author}</span>}
      </p>
      <p className="text-xs text-slate-400">
        <time dateTime={event.at}>{formatDateTime(event.at)}</time>
      </p>
      {kindLabel && <p className="mt-1 text-sm font-medium text-cyan-100">{kindLabel}</p>}
      {text && <p className="mt-1 whitespace-pre-line text-sm text-slate-200 [overflow-wrap:anywhere]">{text}</p>}
      {action?.fate && (
        <p data-testid="action-fate" className="mt-1 text-sm text-slate-200 [overflow-wrap:anywhere]">
          {fateText(action.fate)}
        </p>
      )}
    </li>
  );
}

/** The alert's timeline in full, oldest first: nothing in it is ever erased. */
export function AlertTimeline({ alert, who }: { alert: Alert; who: Who }) {
  return (
    <div className="min-w-0">
      <DetailSection
        id={`alert-timeline-${alert.id}`}
        title="Chronologie"
        description="Tout ce qui s’est passé, dans l’ordre ; rien n’y est jamais effacé."
      >
        <ol className="space-y-4 border-l border-white/10 pl-3" aria-label="Chronologie de l’alerte">
          {alert.events.map((event, index) => (
            <TimelineEntry key={`${event.at}-${index}`} event={event} who={who} />
          ))}
        </ol>
      </DetailSection>
    </div>
  );
}
