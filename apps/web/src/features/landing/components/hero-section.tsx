import { Bell, Play, Radio, Settings, Thermometer, Users } from 'lucide-react';
import { Link } from 'react-router';

type HeroSectionProps = {
  onLearnMore: () => void;
};

const previewDevices = [
  { icon: Thermometer, name: 'Vitrine réfrigérée', place: 'Lyon Part-Dieu', value: '3,8\u00A0°C', tone: 'text-emerald-300' },
  { icon: Users, name: 'Compteur d’entrée', place: 'Paris Opéra', value: '1\u202F248', tone: 'text-cyan-300' },
  { icon: Radio, name: 'Émetteur réserve', place: 'Bordeaux Centre', value: 'En ligne', tone: 'text-emerald-300' },
];

export function HeroSection({ onLearnMore }: HeroSectionProps) {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative mx-auto grid max-w-6xl items-center gap-14 px-5 pb-20 pt-14 sm:px-8 sm:pt-20 lg:grid-cols-[1.1fr_0.9fr] lg:pb-28"
    >
      <div className="animate-fade-up">
        <p className="inline-flex items-center gap-2 rounded-full border border-cyan-300/20 bg-cyan-300/10 px-3 py-1 text-sm font-medium text-cyan-200">
          <span className="relative flex size-2">
            <span className="absolute inline-flex size-full animate-ping rounded-full bg-cyan-300 opacity-60" />
            <span className="relative inline-flex size-2 rounded-full bg-cyan-300" />
          </span>
          Supervision IoT pour le commerce
        </p>
        <h1 id="hero-title" className="mt-6 text-4xl font-bold leading-[1.08] tracking-tight text-white sm:text-5xl lg:text-6xl">
          Chaque boutique,{' '}
          <span className="bg-gradient-to-r from-cyan-300 via-sky-300 to-violet-300 bg-clip-text text-transparent">
            sous votre vigilance.
          </span>
        </h1>
        <p className="mt-6 max-w-xl text-lg leading-relaxed text-slate-300">
          Vigie réunit les émetteurs et capteurs connectés de vos points de vente dans un seul tableau de bord&#8239;: températures,
          fréquentation, état des appareils. Vous voyez tout, partout, tout de suite.
        </p>
        <div className="mt-9 flex flex-col gap-3 sm:flex-row">
          <Link
            to="/login"
            className="inline-flex items-center justify-center gap-2 rounded-xl bg-cyan-400 px-6 py-3.5 text-base font-semibold text-slate-950 shadow-lg shadow-cyan-500/25 transition hover:-translate-y-0.5 hover:bg-cyan-300"
          >
            <Play className="size-5" aria-hidden="true" />
            Commencer maintenant
          </Link>
          <button
            type="button"
            onClick={onLearnMore}
            className="inline-flex items-center justify-center rounded-xl border border-white/15 bg-white/5 px-6 py-3.5 text-base font-semibold text-white transition hover:border-white/30 hover:bg-white/10"
          >
            En savoir plus
          </button>
        </div>
      </div>

      {/* An illustration of the dashboard, not real data. */}
      <div aria-hidden="true" className="animate-fade-up relative [animation-delay:150ms]">
        <div className="absolute -inset-6 rounded-[2rem] bg-gradient-to-br from-cyan-400/20 via-transparent to-violet-500/20 blur-2xl" />
        <div className="relative rounded-3xl border border-white/10 bg-slate-900/70 p-5 shadow-2xl shadow-black/50 backdrop-blur-xl">
          <div className="flex items-center justify-between border-b border-white/5 pb-4">
            <div>
              <p className="text-xs font-medium uppercase tracking-wider text-slate-400">Réseau</p>
              <p className="mt-1 text-lg font-semibold text-white">42 appareils actifs</p>
            </div>
            <div className="flex gap-2 text-slate-400">
              <span className="grid size-9 place-items-center rounded-lg bg-white/5">
                <Bell className="size-4" />
              </span>
              <span className="grid size-9 place-items-center rounded-lg bg-white/5">
                <Settings className="size-4" />
              </span>
            </div>
          </div>
          <ul className="mt-4 space-y-3">
            {previewDevices.map(({ icon: Icon, name, place, value, tone }) => (
              <li key={name} className="flex items-center gap-3 rounded-2xl border border-white/5 bg-white/[0.03] p-3">
                <span className="grid size-10 place-items-center rounded-xl bg-gradient-to-br from-cyan-400/20 to-violet-500/20 text-cyan-200">
                  <Icon className="size-5" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium text-white">{name}</span>
                  <span className="block truncate text-xs text-slate-400">{place}</span>
                </span>
                <span className={`text-sm font-semibold ${tone}`}>{value}</span>
              </li>
            ))}
          </ul>
          <div className="mt-4 flex h-20 items-end gap-1.5 rounded-2xl border border-white/5 bg-white/[0.02] p-3">
            {[38, 52, 45, 61, 57, 72, 66, 80, 74, 88, 79, 92].map((height, index) => (
              <span
                key={index}
                className="flex-1 rounded-t bg-gradient-to-t from-cyan-500/30 to-cyan-300/80"
                style={{ height: `${height}%` }}
              />
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}
