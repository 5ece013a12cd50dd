import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from './api-client';
import { downloadFile, fileNameFrom } from './download-file';

describe('fileNameFrom', () => {
  it('reads the UTF-8 name first, then the plain one, else the fallback', () => {
    expect(fileNameFrom('attachment; filename="rapport.pdf"; filename*=UTF-8\'\'rapport-f%C3%A9vrier.pdf', 'x.pdf')).toBe(
      'rapport-février.pdf',
    );
    expect(fileNameFrom('attachment; filename="mesures.csv"', 'x.csv')).toBe('mesures.csv');
    expect(fileNameFrom('attachment; filename=mesures.csv', 'x.csv')).toBe('mesures.csv');
    expect(fileNameFrom(null, 'x.csv')).toBe('x.csv');
    expect(fileNameFrom('attachment', 'x.csv')).toBe('x.csv');
  });
});

describe('downloadFile', () => {
  let clicked: { href: string; download: string }[];
  // jsdom has no object URLs: a stand-in for the test's duration.
  const { createObjectURL, revokeObjectURL } = URL;

  beforeEach(() => {
    clicked = [];
    setAccessToken('tok');
    URL.createObjectURL = () => 'blob:report';
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
  });

  afterEach(() => {
    setAccessToken(null);
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('fetches the file with the token and saves it under the name the server proposes', async () => {
    const calls: { url: string; accept: string | null; auth: string | null }[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      calls.push({ url, accept: headers.get('Accept'), auth: headers.get('Authorization') });
      return new Response('%PDF-1.7', { status: 200, headers: { 'Content-Disposition': 'attachment; filename="rapport-2026-11.pdf"' } });
    });
    await expect(downloadFile('/reports/r1/pdf', { accept: 'application/pdf', fallbackName: 'rapport.pdf' })).resolves.toBe(
      'rapport-2026-11.pdf',
    );
    expect(calls).toEqual([{ url: '/api/reports/r1/pdf', accept: 'application/pdf', auth: 'Bearer tok' }]);
    expect(clicked).toEqual([{ href: 'blob:report', download: 'rapport-2026-11.pdf' }]);
    expect(document.querySelector('a[download]')).toBeNull();
  });
});
