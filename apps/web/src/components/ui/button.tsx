import { LoaderCircle } from 'lucide-react';
import type { ButtonHTMLAttributes, ReactNode } from 'react';

const VARIANTS = {
  primary:
    'bg-gradient-to-r from-cyan-400 to-violet-500 font-semibold text-slate-950 shadow-lg shadow-cyan-500/20 hover:from-cyan-300 hover:to-violet-400',
  secondary: 'border border-cyan-300/30 bg-cyan-400/10 font-semibold text-cyan-100 hover:border-cyan-300/60 hover:bg-cyan-400/20',
  ghost: 'border border-white/10 font-medium text-slate-200 hover:border-white/20 hover:bg-white/5 hover:text-white',
  danger: 'border border-red-400/40 font-medium text-red-100 hover:bg-red-500/15',
  warning: 'bg-amber-300 font-semibold text-slate-950 hover:bg-amber-200',
} as const;

const SIZES = { md: 'rounded-xl px-4 py-2.5', sm: 'rounded-lg px-3 py-2' } as const;

export type ButtonVariant = keyof typeof VARIANTS;

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: keyof typeof SIZES;
  /** Shows a spinner, marks the button busy and disables it. */
  busy?: boolean;
  icon?: ReactNode;
};

/** The product's button: one look per intent, a spinner while busy. */
export function Button({
  variant = 'ghost',
  size = 'md',
  busy = false,
  icon,
  className = '',
  disabled,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={`inline-flex items-center justify-center gap-2 ${SIZES[size]} text-sm transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${VARIANTS[variant]} ${className}`}
      {...rest}
    >
      {busy ? <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" /> : icon}
      {children}
    </button>
  );
}
