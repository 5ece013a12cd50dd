import type { AuditEvent } from '@vigie/contract';
import { actionLabel, auditTime, detailLines, subjectText } from '../audit-format';

/** The trail's lines, newest first: when, what, by whom, on what, what changed and from where. */
export function AuditList({ events }: { events: AuditEvent[] }) {
  return (
    <ol className="divide-y divide-white/10" aria-label="Actions du journal">
      {events.map((event) => {
        const subject = subjectText(event.subject);
        const lines = detailLines(event.details);
        return (
          <li key={event.id} data-testid="audit-event" className="grid gap-1 py-3 first:pt-0 last:pb-0 sm:grid-cols-[11rem_1fr] sm:gap-4">
            <time dateTime={event.at} className="text-sm tabular-nums text-slate-300">
              {auditTime(event.at)}
            </time>
            <div className="min-w-0">
              <p className="[overflow-wrap:anywhere] text-white">
                <span className={event.action === 'auth.login_failed' ? 'font-semibold text-amber-200' : 'font-semibold'}>
                  {actionLabel(event.action)}
                </span>
                {subject && <span className="text-slate-200"> · {subject}</span>}
              </p>
              <p className="text-sm [overflow-wrap:anywhere] text-slate-300">
                {event.actor ? `par ${event.actor.name ?? event.actor.email} (${event.actor.email})` : 'sans session ouverte'}
                {event.ip && ` · depuis ${event.ip}`}
              </p>
              {lines.length > 0 && (
                <ul className="mt-1 space-y-0.5 text-sm [overflow-wrap:anywhere] text-slate-300">
                  {lines.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
