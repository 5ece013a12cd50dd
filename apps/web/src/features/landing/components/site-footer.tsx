import type { MouseEvent } from 'react';
import { BrandLogo } from '@/components/brand-logo';

const columns = [
  { title: 'Produit', links: ['Fonctionnalités', 'Tarifs', 'Sécurité', 'Nouveautés'] },
  { title: 'Entreprise', links: ['À propos', 'Carrières', 'Presse', 'Contact'] },
  { title: 'Ressources', links: ['Documentation', 'Centre d’aide', 'Blog', 'Statut du service'] },
  { title: 'Légal', links: ['Mentions légales', 'Confidentialité', 'Conditions d’utilisation', 'Cookies'] },
];

const preventNavigation = (event: MouseEvent<HTMLAnchorElement>) => event.preventDefault();

export function SiteFooter() {
  return (
    <footer className="border-t border-white/5 bg-slate-950/80">
      <div className="mx-auto grid max-w-6xl gap-10 px-5 py-14 sm:px-8 lg:grid-cols-[1.2fr_2fr]">
        <div>
          <BrandLogo />
          <p className="mt-4 max-w-xs text-sm leading-relaxed text-slate-400">
            La supervision des appareils connectés pensée pour les points de vente.
          </p>
        </div>
        <div className="grid grid-cols-2 gap-8 sm:grid-cols-4">
          {columns.map(({ title, links }) => (
            <nav key={title} aria-label={title}>
              <h2 className="text-sm font-semibold text-white">{title}</h2>
              <ul className="mt-4 space-y-3">
                {links.map((label) => (
                  <li key={label}>
                    <a href="#" onClick={preventNavigation} className="text-sm text-slate-400 transition-colors hover:text-white">
                      {label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
      </div>
      <div className="border-t border-white/5">
        <p className="mx-auto max-w-6xl px-5 py-6 text-sm text-slate-400 sm:px-8">© 2024 Vigie. Tous droits réservés.</p>
      </div>
    </footer>
  );
}
