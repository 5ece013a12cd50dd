import { Bell, Brain, Radio, type LucideIcon } from 'lucide-react';
import type { Ref } from 'react';

type Feature = { icon: LucideIcon; title: string; text: string; accent: string };

const features: Feature[] = [
  {
    icon: Bell,
    title: 'Surveillance en temps réel',
    text: 'Suivez l’état de chaque capteur et de chaque émetteur à la seconde près, et soyez prévenu dès qu’une valeur sort de la normale.',
    accent: 'from-cyan-400/25 to-sky-500/10 text-cyan-200',
  },
  {
    icon: Brain,
    title: 'Analyse prédictive',
    text: 'Anticipez les pannes et les dérives\u202F: Vigie apprend de l’historique de vos mesures pour vous signaler un problème avant qu’il ne survienne.',
    accent: 'from-violet-400/25 to-fuchsia-500/10 text-violet-200',
  },
  {
    icon: Radio,
    title: 'Installation plug-and-play',
    text: 'Branchez l’appareil, il s’enregistre tout seul auprès de votre organisation. Aucune compétence technique n’est nécessaire.',
    accent: 'from-emerald-400/25 to-teal-500/10 text-emerald-200',
  },
];

export function FeaturesSection({ headingRef }: { headingRef?: Ref<HTMLHeadingElement> }) {
  return (
    <section id="fonctionnalites" aria-labelledby="features-title" className="mx-auto max-w-6xl scroll-mt-20 px-5 py-20 sm:px-8">
      <p className="text-sm font-semibold uppercase tracking-[0.2em] text-cyan-300">Fonctionnalités</p>
      <h2
        id="features-title"
        ref={headingRef}
        tabIndex={-1}
        className="mt-3 max-w-2xl text-3xl font-bold tracking-tight text-white focus:outline-none sm:text-4xl"
      >
        Tout ce qu’il faut pour veiller sur vos boutiques
      </h2>
      <ul className="mt-12 grid gap-5 md:grid-cols-3">
        {features.map(({ icon: Icon, title, text, accent }) => (
          <li
            key={title}
            className="group relative overflow-hidden rounded-3xl border border-white/10 bg-slate-900/50 p-7 backdrop-blur transition duration-300 hover:-translate-y-1 hover:border-white/20"
          >
            <span className={`grid size-12 place-items-center rounded-2xl bg-gradient-to-br ${accent}`}>
              <Icon className="size-6" aria-hidden="true" />
            </span>
            <h3 className="mt-6 text-xl font-semibold text-white">{title}</h3>
            <p className="mt-3 leading-relaxed text-slate-300">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
