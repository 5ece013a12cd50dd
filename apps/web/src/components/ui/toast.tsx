import { X } from 'lucide-react';
import { useEffect, useRef, useSyncExternalStore } from 'react';

export type ToastInput = {
  message: string;
  /** One action, such as « Annuler »; the toast closes once it is chosen. */
  action?: { label: string; onClick: () => void };
  /** How long the toast stays, in ms (10 s by default), paused while pointed at or focused. */
  durationMs?: number;
};

type Toast = ToastInput & { id: number };

// A small store outside React: any code (a mutation's callback) can show a toast.
let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function showToast(input: ToastInput): number {
  const id = nextId++;
  // One at a time: a new toast replaces the previous one, so the stack never covers the page.
  toasts = [{ ...input, id }];
  emit();
  return id;
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

const getToasts = () => toasts;

function ToastItem({ toast }: { toast: Toast }) {
  const { id, message, action, durationMs = 10_000 } = toast;
  const paused = useRef(false);
  const remaining = useRef(durationMs);

  useEffect(() => {
    let started = Date.now();
    const tick = setInterval(() => {
      const now = Date.now();
      if (!paused.current) remaining.current -= now - started;
      started = now;
      if (remaining.current <= 0) dismissToast(id);
    }, 250);
    return () => clearInterval(tick);
  }, [id]);

  const pause = () => (paused.current = true);
  const resume = () => (paused.current = false);

  return (
    <div
      onMouseEnter={pause}
      onMouseLeave={resume}
      onFocus={pause}
      onBlur={resume}
      className="pointer-events-auto flex w-full items-center gap-3 rounded-2xl border border-white/10 bg-slate-900/95 p-3 pl-4 text-sm text-slate-100 shadow-2xl shadow-black/50 backdrop-blur motion-safe:animate-toast-in"
    >
      <p className="min-w-0 flex-1">{message}</p>
      {action && (
        <button
          type="button"
          onClick={() => {
            dismissToast(id);
            action.onClick();
          }}
          className="shrink-0 rounded-lg border border-cyan-300/40 bg-cyan-400/10 px-3 py-1.5 font-semibold text-cyan-100 hover:border-cyan-300/70 hover:bg-cyan-400/20"
        >
          {action.label}
        </button>
      )}
      <button
        type="button"
        onClick={() => dismissToast(id)}
        aria-label="Fermer la notification"
        className="grid size-8 shrink-0 place-items-center rounded-lg text-slate-400 hover:bg-white/5 hover:text-white"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}

/**
 * Where toasts show: a polite status region, always present so that screen readers announce
 * what arrives in it. It never takes the focus; its buttons are in the tab order. `placement` is
 * its distance from the foot of the screen, as Tailwind classes (above a bar fixed there).
 */
export function Toaster({ placement = 'bottom-0' }: { placement?: string }) {
  const current = useSyncExternalStore(subscribe, getToasts, getToasts);
  return (
    <div
      role="status"
      aria-live="polite"
      aria-label="Notifications"
      className={`pointer-events-none fixed inset-x-0 ${placement} z-50 mx-auto flex w-full max-w-md flex-col gap-2 p-4 sm:right-4 sm:left-auto sm:mx-0`}
    >
      {current.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
