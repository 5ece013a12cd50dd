import type { LiveStatus } from './use-live-stream';

const LABELS: Record<LiveStatus, { text: string; short: string; hint: string }> = {
  live: { text: 'En direct', short: 'En direct', hint: 'Les valeurs se mettent à jour dès que les appareils les envoient.' },
  connecting: { text: 'Connexion au direct…', short: 'Connexion…', hint: 'Les valeurs affichées sont celles du chargement de la page.' },
  reconnecting: {
    text: 'Direct interrompu, reconnexion…',
    short: 'Reconnexion…',
    hint: 'Les valeurs affichées peuvent ne plus être à jour.',
  },
};

/** Says whether the values on screen follow the devices live, as a polite status. */
export function LiveIndicator({ status, compact = false }: { status: LiveStatus; compact?: boolean }) {
  const { text, short, hint } = LABELS[status];
  const live = status === 'live';
  return (
    <p
      role="status"
      data-live-status={status}
      className={`inline-flex shrink-0 items-center gap-2 rounded-full border ${compact ? 'px-2.5 py-1 sm:px-3' : 'px-3 py-1'} text-xs font-medium ${
        live ? 'border-emerald-400/30 bg-emerald-400/10 text-emerald-100' : 'border-amber-300/30 bg-amber-300/10 text-amber-100'
      }`}
    >
      <span className="relative flex size-2" aria-hidden="true">
        {/* Three pings when the stream goes live, then a steady dot: a page left open all day must
            not keep redrawing (an endless ping kept most of a core busy in a browser without GPU). */}
        {live && (
          <span className="absolute inline-flex size-full animate-[ping_1s_cubic-bezier(0,0,0.2,1)_3] rounded-full bg-emerald-400 opacity-60 motion-reduce:animate-none" />
        )}
        <span className={`relative inline-flex size-2 rounded-full ${live ? 'bg-emerald-400' : 'bg-amber-300'}`} />
      </span>
      {/* Compact: a phone shows a short word; screen readers always hear the full label. */}
      {compact && (
        <span aria-hidden="true" className="whitespace-nowrap sm:hidden">
          {short}
        </span>
      )}
      <span className={compact ? 'sr-only sm:not-sr-only' : undefined}>{text}</span>
      <span className="sr-only">{`\u202F: ${hint}`}</span>
    </p>
  );
}
