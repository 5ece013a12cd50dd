import type { Worker } from 'node:worker_threads';
import { AppError } from '../../errors.ts';
import { startWorkerThread } from '../../worker-thread.ts';
import type { ReportContent } from './report-content.ts';
import { renderReportCsv } from './report-csv.ts';
import { renderReportPdf } from './report-pdf.ts';
import type { ReportWorkerRequest, ReportWorkerResponse } from './report-worker.ts';

export interface RenderedReport {
  pdf: Buffer;
  csv: Buffer;
}

export interface ReportRenderer {
  render(content: ReportContent): Promise<RenderedReport>;
  close(): Promise<void>;
}

/** A month of a site with every unit reading every minute is a few megabytes of content. */
export const DEFAULT_RENDER_BUDGET = { timeoutMs: 60_000, maxContentBytes: 32 * 1024 * 1024 };

export const RENDER_TIMEOUT_MESSAGE =
  'Le rapport n’a pas pu être établi dans le temps imparti : réessayez plus tard, ou prévenez la personne qui administre Vigie.';
export const RENDER_TOO_LARGE_MESSAGE = 'Le rapport serait trop volumineux pour être établi : choisissez un site avec moins de capteurs.';

/**
 * Renders reports (PDF and CSV) in a worker thread, one at a time, each within a time budget: a
 * rendering that runs over is stopped (the thread is ended and a new one starts for the next) and
 * answers a French 503, and content over the size budget is refused before any work. Meanwhile
 * the server's own thread keeps answering. Should the thread fail to start, reports are rendered
 * in the process, as before, and said once in the log.
 */
export function createReportRenderer(options: {
  logger: { warn(obj: object, msg: string): void };
  useWorker?: boolean;
  timeoutMs?: number;
  maxContentBytes?: number;
}): ReportRenderer {
  const timeoutMs = options.timeoutMs ?? DEFAULT_RENDER_BUDGET.timeoutMs;
  const maxContentBytes = options.maxContentBytes ?? DEFAULT_RENDER_BUDGET.maxContentBytes;
  let worker: Worker | null = null;
  let broken = options.useWorker === false;
  let closed = false;
  let nextId = 1;
  /** One rendering at a time: its time budget counts from when it starts, not from when it was asked. */
  let queue: Promise<unknown> = Promise.resolve();

  function thread(): Worker | null {
    if (worker || broken) return worker;
    try {
      const created = startWorkerThread(import.meta.url, 'report-worker');
      created.unref();
      created.on('error', (error) => {
        options.logger.warn({ err: error }, 'Fil de rendu des rapports en échec : rendu dans le processus principal');
        broken = true;
        if (worker === created) worker = null;
      });
      created.on('exit', () => {
        if (worker === created) worker = null;
      });
      worker = created;
    } catch (error) {
      options.logger.warn({ err: error }, 'Fil de rendu des rapports indisponible : rendu dans le processus principal');
      broken = true;
    }
    return worker;
  }

  function inWorker(target: Worker, content: ReportContent): Promise<RenderedReport> {
    const id = nextId++;
    return new Promise<RenderedReport>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        target.off('message', onMessage);
        target.off('exit', onExit);
        target.unref();
      };
      const onMessage = (response: ReportWorkerResponse) => {
        if (response.id !== id) return;
        finish();
        if ('error' in response) reject(new Error(response.error));
        else resolve({ pdf: Buffer.from(response.pdf), csv: Buffer.from(response.csv) });
      };
      const onExit = (code: number) => {
        finish();
        reject(new Error(`Fil de rendu des rapports arrêté (code ${code})`));
      };
      const timer = setTimeout(() => {
        finish();
        // The thread is busy with this report and would stay so: it is ended, the next report gets a new one.
        if (worker === target) worker = null;
        void target.terminate();
        options.logger.warn({ timeoutMs }, 'Rendu d’un rapport arrêté : délai dépassé');
        reject(new AppError(503, RENDER_TIMEOUT_MESSAGE));
      }, timeoutMs);
      target.on('message', onMessage);
      target.on('exit', onExit);
      target.ref();
      const request: ReportWorkerRequest = { id, content };
      target.postMessage(request);
    });
  }

  async function renderOne(content: ReportContent): Promise<RenderedReport> {
    if (closed) throw new AppError(503, RENDER_TIMEOUT_MESSAGE);
    if (Buffer.byteLength(JSON.stringify(content)) > maxContentBytes) throw new AppError(422, RENDER_TOO_LARGE_MESSAGE);
    const target = thread();
    if (!target) return { pdf: await renderReportPdf(content), csv: renderReportCsv(content) };
    return inWorker(target, content);
  }

  return {
    render(content) {
      const rendered = queue.then(() => renderOne(content));
      queue = rendered.catch(() => undefined);
      return rendered;
    },
    async close() {
      closed = true;
      const target = worker;
      worker = null;
      broken = true;
      if (target) await target.terminate();
    },
  };
}
