// French number formats: narrow no-break space for thousands and before %.
const stats = [
  { value: '10\u202F000+', label: 'capteurs déployés' },
  { value: '500+', label: 'entreprises clientes' },
  { value: '99,9\u202F%', label: 'de disponibilité' },
  { value: '24/7', label: 'support' },
];

export function StatsSection() {
  return (
    <section aria-labelledby="stats-title" className="mx-auto max-w-6xl px-5 py-12 sm:px-8">
      <h2 id="stats-title" className="sr-only">
        Vigie en chiffres
      </h2>
      <dl className="grid grid-cols-2 gap-px overflow-hidden rounded-3xl border border-white/10 bg-white/10 lg:grid-cols-4">
        {stats.map(({ value, label }) => (
          <div
            key={label}
            className="flex flex-col-reverse items-center gap-1 bg-slate-950/80 px-4 py-8 text-center backdrop-blur sm:py-10"
          >
            <dt className="text-sm text-slate-300 sm:text-base">{label}</dt>
            <dd className="bg-gradient-to-br from-white to-cyan-200 bg-clip-text text-3xl font-bold tracking-tight text-transparent sm:text-4xl">
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
