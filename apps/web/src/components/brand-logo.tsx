import { Radar } from 'lucide-react';
import { PRODUCT_NAME } from '@/config/constants';

/** The product mark and name. */
export function BrandLogo({ className = '' }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2.5 font-semibold tracking-tight ${className}`}>
      <span className="grid size-9 place-items-center rounded-xl bg-gradient-to-br from-cyan-400 to-violet-500 text-slate-950 shadow-lg shadow-cyan-500/20">
        <Radar className="size-5" aria-hidden="true" strokeWidth={2.25} />
      </span>
      <span className="text-lg text-white">{PRODUCT_NAME}</span>
    </span>
  );
}
