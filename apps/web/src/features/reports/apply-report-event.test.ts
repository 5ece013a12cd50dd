import type { Report } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { createTestQueryClient } from '@/testing/render';
import { applyReportEvent, reportReadyMessage } from './apply-report-event';
import { reportFixture } from './report-fixture';
import { reportKeys } from './report-keys';

const owner = 'user-1';
const older = reportFixture({ id: 'a1b2c3d4-0000-4000-8000-000000000001', month: '2026-10', createdAt: '2026-11-01T02:00:00.000Z' });
const made = reportFixture();
const message = (event: string, data: unknown) => ({ id: '1', event, data: JSON.stringify(data) });

describe('applyReportEvent', () => {
  it('puts a report made by the monthly job first in the lists already loaded', () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(reportKeys.list(owner, null), [older]);
    queryClient.setQueryData(reportKeys.list(owner, made.siteId), [older]);
    queryClient.setQueryData(reportKeys.list(owner, 'another-site'), []);

    const event = applyReportEvent(queryClient, owner, message('report', { action: 'created', report: made }));
    expect(event).toEqual({ action: 'created', report: made });
    expect(queryClient.getQueryData<Report[]>(reportKeys.list(owner, null))?.map((report) => report.id)).toEqual([made.id, older.id]);
    expect(queryClient.getQueryData<Report[]>(reportKeys.list(owner, made.siteId))?.map((report) => report.id)).toEqual([
      made.id,
      older.id,
    ]);
    expect(queryClient.getQueryData<Report[]>(reportKeys.list(owner, 'another-site'))).toEqual([]);
  });

  it('replaces a report once signed', () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(reportKeys.list(owner, null), [made, older]);
    const signed = { ...made, signedAt: '2026-12-02T14:00:00.000Z', signedByName: 'Luc Bernard' };
    applyReportEvent(queryClient, owner, message('report', { action: 'signed', report: signed }));
    expect(queryClient.getQueryData<Report[]>(reportKeys.list(owner, null))).toEqual([signed, older]);
  });

  it('ignores other events and malformed data', () => {
    const queryClient = createTestQueryClient();
    expect(applyReportEvent(queryClient, owner, message('alert', { action: 'opened', report: made }))).toBeNull();
    expect(applyReportEvent(queryClient, owner, message('report', { action: 'deleted', report: made }))).toBeNull();
    expect(applyReportEvent(queryClient, owner, message('report', { action: 'created', report: { id: 'x' } }))).toBeNull();
    expect(applyReportEvent(queryClient, owner, { id: null, event: 'report', data: '{' })).toBeNull();
  });
});

describe('reportReadyMessage', () => {
  it('announces a report made by the monthly job, or by someone else', () => {
    expect(reportReadyMessage({ action: 'created', report: made }, owner)).toBe('Rapport de novembre 2026 prêt — Boutique Opéra');
    const byColleague = { ...made, automatic: false, createdBy: 'user-2' };
    expect(reportReadyMessage({ action: 'created', report: byColleague }, owner)).toBe('Rapport de novembre 2026 prêt — Boutique Opéra');
  });

  it('stays quiet for the person who made it, and for a signature', () => {
    expect(reportReadyMessage({ action: 'created', report: { ...made, automatic: false, createdBy: owner } }, owner)).toBeNull();
    expect(reportReadyMessage({ action: 'signed', report: made }, owner)).toBeNull();
  });
});
