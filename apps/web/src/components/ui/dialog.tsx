import { AlertTriangle } from 'lucide-react';
import { Button } from './button';
import { useEffect, useId, useRef, type ReactNode } from 'react';

type DialogProps = {
  open: boolean;
  title: string;
  children: ReactNode;
  /** The buttons at the foot of the dialog. */
  footer: ReactNode;
  /** Échap, or the cancel button. */
  onCancel: () => void;
  icon?: ReactNode;
};

/** A modal on the native dialog element: focus is trapped, Échap cancels. */
export function Dialog({ open, title, children, footer, onCancel, icon }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl border border-white/10 bg-slate-900 p-0 text-slate-100 shadow-2xl shadow-black/50 backdrop:bg-slate-950/80 backdrop:backdrop-blur-sm"
    >
      {open && (
        <div className="p-6">
          <div className="flex items-start gap-3">
            {icon}
            <div>
              <h2 id={titleId} className="text-lg font-semibold text-white">
                {title}
              </h2>
              <div id={textId} className="mt-2 text-sm leading-relaxed text-slate-300">
                {children}
              </div>
            </div>
          </div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{footer}</div>
        </div>
      )}
    </dialog>
  );
}

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
};

/** Asks before an action that matters; « Annuler » has the focus. */
export function ConfirmDialog({ open, title, children, confirmLabel, onConfirm, onCancel, busy = false }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      onCancel={onCancel}
      icon={
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-amber-400/15 text-amber-200">
          <AlertTriangle className="size-5" aria-hidden="true" />
        </span>
      }
      footer={
        <>
          <Button variant="ghost" autoFocus onClick={onCancel}>
            Annuler
          </Button>
          <Button variant="warning" onClick={onConfirm} disabled={busy} aria-busy={busy || undefined} className="disabled:cursor-wait">
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
