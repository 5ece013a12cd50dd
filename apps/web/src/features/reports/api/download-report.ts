import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download-file';

export type ReportFileFormat = 'pdf' | 'csv';

const FILES: Record<ReportFileFormat, { accept: string }> = {
  pdf: { accept: 'application/pdf' },
  csv: { accept: 'text/csv' },
};

/** GET /api/reports/:id/pdf or /csv, saved under the name the server proposes. */
export function downloadReport({ id, month, format }: { id: string; month: string; format: ReportFileFormat }): Promise<string> {
  return downloadFile(`/reports/${encodeURIComponent(id)}/${format}`, {
    accept: FILES[format].accept,
    fallbackName: `rapport-haccp-${month}.${format}`,
  });
}

export function useDownloadReport() {
  return useMutation({ mutationFn: downloadReport });
}
