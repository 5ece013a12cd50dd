import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';

/** Copies `text` to the clipboard and says so for a moment (to screen readers too). */
export function CopyButton({ text, label, className = '' }: { text: string; label: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return undefined;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <button
      type="button"
      onClick={() => void copy()}
      className={`inline-flex items-center gap-1.5 rounded-lg border border-white/10 px-3 py-2 text-sm font-medium text-slate-200 transition-colors hover:border-white/20 hover:bg-white/5 hover:text-white ${className}`}
    >
      {state === 'copied' ? (
        <Check className="size-4 text-emerald-300" aria-hidden="true" />
      ) : (
        <Copy className="size-4" aria-hidden="true" />
      )}
      {label}
      <span role="status" className="sr-only">
        {state === 'copied' ? 'Copié' : state === 'failed' ? 'Copie impossible\u202F: sélectionnez le texte' : ''}
      </span>
    </button>
  );
}
