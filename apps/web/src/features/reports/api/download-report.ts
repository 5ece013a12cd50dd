import { useMutation } from '@tanstack/react-query';
import { endpoints } from '@vigie/contract/routes';
import { endpointPath } from '@/lib/api-client';
import { downloadFile } from '@/lib/download-file';

export type ReportFileFormat = 'pdf' | 'signedPdf' | 'csv';

const FILES = {
  pdf: { endpoint: endpoints.reports.pdf, accept: 'application/pdf' },
  signedPdf: { endpoint: endpoints.reports.signedPdf, accept: 'application/pdf' },
  csv: { endpoint: endpoints.reports.csv, accept: 'text/csv' },
} satisfies Record<ReportFileFormat, { endpoint: { readonly path: string }; accept: string }>;

/** endpoints.reports.pdf, signedPdf or csv, saved under the name the server proposes. */
export function downloadReport({ id, month, format }: { id: string; month: string; format: ReportFileFormat }): Promise<string> {
  return downloadFile(endpointPath(FILES[format].endpoint, { id }), {
    accept: FILES[format].accept,
    fallbackName: `rapport-haccp-${month}${format === 'signedPdf' ? '_signe' : ''}.${format === 'csv' ? 'csv' : 'pdf'}`,
  });
}

export function useDownloadReport() {
  return useMutation({ mutationFn: downloadReport });
}

/**
 * endpoints.reports.consolidated: the month's consolidated PDF of the shops one sees, or of one
 * region (`regionId`), saved under the name the server proposes.
 */
export function downloadConsolidatedReport({ month, regionId }: { month: string; regionId: string | null }): Promise<string> {
  return downloadFile(endpointPath(endpoints.reports.consolidated, undefined, { month, regionId }), {
    accept: 'application/pdf',
    fallbackName: `rapport-consolide_${month}.pdf`,
  });
}

export function useDownloadConsolidatedReport() {
  return useMutation({ mutationFn: downloadConsolidatedReport });
}
