import type { Report } from '@vigie/contract';
import { BadgeCheck, FileDown, FileSpreadsheet, PenLine } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { CopyButton } from '@/components/copy-button';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { errorMessage } from '@/lib/errors';
import { useDownloadReport, type ReportFileFormat } from '../api/download-report';
import { formatReportMonth, formatSiteDateTime, onDateAt, shortHash } from '../report-format';
import { ReportSummaryPreview } from './report-summary';
import { SignReportForm } from './sign-report-form';

const pill = 'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold';

export function SignatureBadge({ signed }: { signed: boolean }) {
  return signed ? (
    <span className={`${pill} border-emerald-300/40 bg-emerald-400/10 text-emerald-100`}>
      <BadgeCheck className="size-3.5" aria-hidden="true" />
      Signé
    </span>
  ) : (
    <span className={`${pill} border-amber-300/50 bg-amber-400/15 text-amber-100`}>Non signé</span>
  );
}

/** « le 02/11/2026 à 14:05 par Camille Martin », « automatiquement le 01/12/2026 à 03:00 ». */
function madeBy(report: Report, who: (userId: string | null) => string | null): string {
  const when = onDateAt(report.createdAt, report.summary.timezone);
  if (report.automatic) return `Établi automatiquement ${when}`;
  const author = who(report.createdBy);
  return author ? `Établi ${when} par ${author}` : `Établi ${when}`;
}

/**
 * One report: its month and site, who made it, its fingerprint, its signature, a preview of its
 * first page, the two files and « Signer ». `latest` is false for an older version of the month.
 */
export function ReportCard({
  report,
  siteName,
  latest,
  canManage,
  who,
}: {
  report: Report;
  siteName: string;
  latest: boolean;
  /** Admin or manager: may sign (the server decides in the end). */
  canManage: boolean;
  who: (userId: string | null) => string | null;
}) {
  const [signing, setSigning] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const [fileDone, setFileDone] = useState<string | null>(null);
  const [pending, setPending] = useState<ReportFileFormat | null>(null);
  const download = useDownloadReport();
  const actions = useRef<HTMLDivElement>(null);
  const signature = useRef<HTMLParagraphElement>(null);
  const titleId = useId();
  const fileStatusId = useId();
  const signFormId = useId();
  const timeZone = report.summary.timezone;
  const month = formatReportMonth(report.month);
  const signed = Boolean(report.signedAt);
  const version = latest ? '' : `, version du ${formatSiteDateTime(report.createdAt, timeZone)}`;

  const save = (format: ReportFileFormat) => {
    setFileError(null);
    setFileDone(null);
    setPending(format);
    download.mutate(
      { id: report.id, month: report.month, format },
      {
        onSuccess: (name) => setFileDone(`Fichier téléchargé\u202F: ${name}`),
        onError: (failure) => setFileError(errorMessage(failure, 'Le fichier n’a pas pu être téléchargé.')),
        onSettled: () => setPending(null),
      },
    );
  };

  return (
    <article
      aria-label={`${month} · ${siteName}${version}`}
      data-testid="report"
      data-signed={signed || undefined}
      className={`space-y-4 rounded-2xl border p-4 sm:p-5 ${
        latest ? 'border-white/10 bg-slate-900/60' : 'border-white/5 bg-slate-900/30'
      } ${!signed && latest ? 'border-l-4 border-l-amber-300/70' : ''}`}
    >
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <SignatureBadge signed={signed} />
          {!latest && (
            <span className={`${pill} border-white/15 text-slate-300`}>Version du {formatSiteDateTime(report.createdAt, timeZone)}</span>
          )}
        </div>
        <h3 id={titleId} className="text-lg font-semibold text-white [overflow-wrap:anywhere]">
          <span className="capitalize">{month}</span> · {siteName}
          {version && <span className="sr-only">{version}</span>}
        </h3>
        <p className="text-sm text-slate-300">
          {madeBy(report, who)}
          {' · '}
          période du {formatSiteDateTime(report.summary.from, timeZone)} au {formatSiteDateTime(report.summary.to, timeZone)}
        </p>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-400">
          <span>Empreinte SHA-256{'\u00A0'}:</span>
          <code title={report.sha256} className="rounded bg-white/5 px-1.5 py-0.5 font-mono text-slate-200">
            {shortHash(report.sha256)}
          </code>
          <CopyButton text={report.sha256} label="Copier l’empreinte" className="px-2 py-1 text-xs" />
        </div>
        {/* Announced when it changes, here or from another screen through the live stream. */}
        <p ref={signature} tabIndex={-1} aria-live="polite" className="text-sm text-slate-200 outline-none">
          {signed && report.signedAt && (
            <>
              <span className="font-semibold text-emerald-200">
                Signé par {report.signedByName?.trim() || who(report.signedBy) || 'un membre de l’équipe'}{' '}
                {onDateAt(report.signedAt, timeZone)}
              </span>
              {report.signComment && (
                <span className="mt-1 block whitespace-pre-line text-slate-300 [overflow-wrap:anywhere]">{`«\u202F${report.signComment}\u202F»`}</span>
              )}
            </>
          )}
        </p>
      </header>

      {latest ? (
        <ReportSummaryPreview summary={report.summary} />
      ) : (
        <details className="group rounded-xl border border-white/5 px-3 py-2">
          <summary className="cursor-pointer text-sm font-medium text-cyan-200 hover:text-cyan-100">Aperçu de cette version</summary>
          <div className="mt-3">
            <ReportSummaryPreview summary={report.summary} />
          </div>
        </details>
      )}

      <div className="space-y-2">
        <div ref={actions} className="flex flex-wrap gap-2">
          {/* Once signed, the signed copy comes first: the original's « Visa » box is empty. */}
          {signed && report.signedSha256 && (
            <Button
              size="sm"
              variant="secondary"
              busy={pending === 'signedPdf'}
              disabled={pending !== null}
              onClick={() => save('signedPdf')}
              aria-describedby={`${titleId} ${fileStatusId}`}
              icon={<BadgeCheck className="size-4" aria-hidden="true" />}
            >
              Télécharger le PDF signé
            </Button>
          )}
          <Button
            size="sm"
            variant="secondary"
            busy={pending === 'pdf'}
            disabled={pending !== null}
            onClick={() => save('pdf')}
            aria-describedby={`${titleId} ${fileStatusId}`}
            icon={<FileDown className="size-4" aria-hidden="true" />}
          >
            {signed && report.signedSha256 ? 'Télécharger l’original, avant signature' : 'Télécharger le PDF'}
          </Button>
          <Button
            size="sm"
            busy={pending === 'csv'}
            disabled={pending !== null}
            onClick={() => save('csv')}
            aria-describedby={`${titleId} ${fileStatusId}`}
            icon={<FileSpreadsheet className="size-4" aria-hidden="true" />}
          >
            Télécharger le CSV
          </Button>
          {canManage && !signed && (
            <Button
              size="sm"
              variant="primary"
              data-sign=""
              aria-expanded={signing}
              aria-controls={signing ? signFormId : undefined}
              aria-describedby={titleId}
              onClick={() => setSigning((open) => !open)}
              icon={<PenLine className="size-4" aria-hidden="true" />}
            >
              Signer
            </Button>
          )}
        </div>
        <FormStatus id={fileStatusId} error={fileError} success={fileDone} />
        {signing && !signed && (
          <SignReportForm
            id={signFormId}
            report={report}
            onSigned={() => {
              setSigning(false);
              // The button is gone: the focus goes to what replaced it, the signature.
              requestAnimationFrame(() => signature.current?.focus());
            }}
            onCancel={() => {
              setSigning(false);
              requestAnimationFrame(() => actions.current?.querySelector<HTMLButtonElement>('[data-sign]')?.focus());
            }}
          />
        )}
      </div>
    </article>
  );
}
