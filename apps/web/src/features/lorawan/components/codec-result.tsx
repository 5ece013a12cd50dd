import type { CodecOutcome } from '@vigie/contract';
import { PASTED_CODEC_STYLE_LABELS } from '@vigie/contract/values';
import { Alert } from '@/components/ui/alert';
import { formatDateTime, formatNumber, measureLabel } from '@/lib/measure-format';
import { decodedValueText } from '../lorawan-format';

const NNBSP = '\u202F';

/** What the codec made of the frame: its values (label and unit when Vigie knows the measure), and its warnings. */
export function CodecResult({ outcome }: { outcome: CodecOutcome }) {
  // Which of the makers' three styles the pasted source was read in: a codec copied from a maker's
  // repository is recognised by its function's name, and a wrong guess shows here first.
  const style = outcome.style && (
    <p className="text-sm text-slate-300" data-testid="codec-style">
      Style reconnu{NNBSP}: {PASTED_CODEC_STYLE_LABELS[outcome.style]}
    </p>
  );
  if (!outcome.ok) {
    return (
      <div className="space-y-2">
        {style}
        <Alert size="compact">{outcome.error}</Alert>
      </div>
    );
  }
  const readings = outcome.readings.filter((reading) => Object.keys(reading.values).length > 0);
  return (
    <div className="space-y-3 rounded-xl border border-emerald-300/30 bg-emerald-400/5 p-4">
      {style}
      <p className="text-sm font-semibold text-emerald-100">
        {readings.length === 0 ? 'Le décodeur n’a rendu aucune valeur.' : 'Trame décodée.'}
      </p>
      {readings.map((reading, index) => {
        const entries = Object.entries(reading.values);
        return (
          <table key={index} className="w-full text-left text-sm" data-testid="codec-values">
            <caption className="mb-1 text-left text-xs text-slate-400">
              {reading.ts ? `Valeurs du ${formatDateTime(reading.ts)}` : `Valeurs décodées (${formatNumber(entries.length, 0)})`}
            </caption>
            <thead>
              <tr className="border-b border-white/10 text-slate-400">
                <th scope="col" className="py-1.5 pr-4 font-medium">
                  Mesure
                </th>
                <th scope="col" className="py-1.5 font-medium">
                  Valeur
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map(([key, value]) => {
                const label = measureLabel(key);
                return (
                  <tr key={key} className="border-b border-white/5 last:border-0">
                    <th scope="row" className="py-1.5 pr-4 align-top font-normal text-slate-200">
                      <span className="[overflow-wrap:anywhere]">{label}</span>
                      {label !== key && <span className="ml-2 font-mono text-xs text-slate-400">{key}</span>}
                    </th>
                    <td className="py-1.5 align-top font-medium [overflow-wrap:anywhere] text-white tabular-nums">
                      {decodedValueText(key, value)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        );
      })}
      {outcome.warnings.length > 0 && (
        <div className="text-sm text-amber-100">
          <p className="font-medium">Avertissements du décodeur{NNBSP}:</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 [overflow-wrap:anywhere]">
            {outcome.warnings.map((warning, index) => (
              <li key={index}>{warning}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
