import { ArrowLeft, Radio, Radar, ShieldCheck } from 'lucide-react';
import { ssoFailureMessage } from '@vigie/contract/values';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { AnimatedBackground } from '@/components/animated-background';
import { BrandLogo } from '@/components/brand-logo';
import { DEFAULT_AFTER_LOGIN, PRODUCT_NAME } from '@/config/constants';
import { LoginForm } from '@/features/auth/components/login-form';
import { redirectTarget } from '@/features/auth/components/protected-route';

const highlights = [
  { icon: Radar, text: 'Vos capteurs et émetteurs suivis en temps réel' },
  { icon: Radio, text: 'Ajoutez un appareil en quelques secondes' },
  { icon: ShieldCheck, text: 'Accès sécurisé, réservé à votre organisation' },
];

export default function LoginRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  // A sign-in through single sign-on that did not finish comes back here with its reason.
  const ssoFailure = ssoFailureMessage(search.get('sso'));
  const next = redirectTarget(location.state, DEFAULT_AFTER_LOGIN);

  const onSuccess = () => {
    const target = next;
    // Arriving on the dashboard: a person who sees several shops of a chain is taken to « Réseau ».
    void navigate(target, { replace: true, state: target === DEFAULT_AFTER_LOGIN ? { signedIn: true } : undefined });
  };

  return (
    <div className="flex min-h-dvh flex-col">
      <title>{`Connexion · ${PRODUCT_NAME}`}</title>
      <AnimatedBackground />
      <header className="mx-auto flex w-full max-w-6xl items-center justify-between px-5 py-5 sm:px-8">
        <Link to="/" className="rounded-xl" aria-label={`${PRODUCT_NAME}, accueil`}>
          <BrandLogo />
        </Link>
        <Link
          to="/"
          className="inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-slate-300 transition-colors hover:bg-white/5 hover:text-white"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Retour à l’accueil
        </Link>
      </header>

      <main className="mx-auto grid w-full max-w-6xl flex-1 items-start gap-12 px-5 pb-16 pt-6 sm:px-8 sm:pt-12 lg:grid-cols-2 lg:items-center lg:pt-4">
        <section className="hidden lg:block" aria-labelledby="login-aside-title">
          <p className="text-sm font-semibold uppercase tracking-[0.2em] text-cyan-300">Espace client</p>
          <h2 id="login-aside-title" className="mt-4 text-4xl font-bold leading-tight text-white">
            Tous vos points de vente,
            <br />
            <span className="bg-gradient-to-r from-cyan-300 to-violet-300 bg-clip-text text-transparent">sous surveillance.</span>
          </h2>
          <ul className="mt-8 space-y-4">
            {highlights.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3 text-slate-300">
                <span className="grid size-9 place-items-center rounded-lg border border-white/10 bg-white/5 text-cyan-300">
                  <Icon className="size-4" aria-hidden="true" />
                </span>
                {text}
              </li>
            ))}
          </ul>
        </section>

        <div className="mx-auto w-full max-w-md">
          <div className="rounded-3xl border border-white/10 bg-slate-900/60 p-6 shadow-2xl shadow-black/40 backdrop-blur-xl sm:p-8">
            <h1 className="text-2xl font-bold text-white">Connexion</h1>
            <p className="mt-2 text-sm text-slate-300">Accédez au tableau de bord de vos appareils connectés.</p>
            <div className="mt-7">
              <LoginForm onSuccess={onSuccess} next={next} initialError={ssoFailure} />
            </div>
          </div>
        </div>
      </main>
    </div>
  );
}
