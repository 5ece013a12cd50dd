/**
 * The worker thread where reports are rendered: laying out a PDF is CPU work (hundreds of
 * milliseconds for a month of a busy site), kept off the thread that serves requests.
 */
import { parentPort } from 'node:worker_threads';
import type { ReportContent } from './report-content.ts';
import { renderReportCsv } from './report-csv.ts';
import { renderReportPdf } from './report-pdf.ts';

export interface ReportWorkerRequest {
  id: number;
  content: ReportContent;
}

export type ReportWorkerResponse = { id: number; pdf: Uint8Array; csv: Uint8Array } | { id: number; error: string };

parentPort?.on('message', (request: ReportWorkerRequest) => {
  void (async () => {
    let response: ReportWorkerResponse;
    try {
      response = { id: request.id, pdf: await renderReportPdf(request.content), csv: renderReportCsv(request.content) };
    } catch (error) {
      response = { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    parentPort?.postMessage(response);
  })();
});
