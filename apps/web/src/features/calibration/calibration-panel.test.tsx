import type { Calibration, CreateCalibrationRequest } from '@vigie/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestQueryClient, fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { CalibrationPanel } from './components/calibration-panel';

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');
// On the minute: « Vérifié le » shows it to the minute, and sends it back as it was.
const NOW = Date.parse('2027-12-01T10:00:00.000Z');
const SENSOR = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
const LIST = `/api/sensor/${SENSOR}/calibrations`;
const MB = 1024 * 1024;

const calibration = (patch: Partial<Calibration> & Pick<Calibration, 'id' | 'verifiedAt' | 'offset'>): Calibration => ({
  sensorId: SENSOR,
  method: 'Bain thermostaté, sonde étalon n° 4521',
  nextDueAt: null,
  note: null,
  certificate: null,
  by: { id: null, name: 'Camille Martin' },
  createdAt: patch.verifiedAt,
  appliesFrom: patch.verifiedAt,
  amendedPeriod: null,
  ...patch,
});

const LATEST = calibration({
  id: '0f1a2b3c-4d5e-4f6a-8b7c-8d9e0f1a2b3c',
  verifiedAt: '2026-11-20T08:30:00.000Z',
  offset: 0.4,
  nextDueAt: '2027-11-20T08:30:00.000Z',
  note: 'Joint de porte changé le même jour.',
  certificate: { fileName: 'certificat-2026.pdf', contentType: 'application/pdf', size: 182_000, sha256: 'ab'.repeat(32) },
  by: { id: null, name: 'Léa Dubois' },
});
const OLDER = calibration({ id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', verifiedAt: '2025-11-18T09:00:00.000Z', offset: -0.3 });

type Request = { url: string; method: string; auth: string | null; body: unknown };
let requests: Request[];
let calibrations: Calibration[];
/** The server's answer to the next POST, when it refuses it. */
let refusal: string | null;
// jsdom has no object URLs: stand-ins while a certificate is saved, the originals put back after.
const { createObjectURL, revokeObjectURL } = URL;

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  requests = [];
  calibrations = [];
  refusal = null;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({ url, method, auth: new Headers(init?.headers).get('Authorization'), body });
    if (url === LIST && method === 'GET') return jsonResponse(200, { calibrations });
    if (url === LIST && method === 'POST') {
      if (refusal) return jsonResponse(400, { message: refusal });
      const sent = body as CreateCalibrationRequest;
      const created = calibration({
        id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
        verifiedAt: sent.verifiedAt,
        offset: sent.offset,
        method: sent.method,
        nextDueAt: sent.nextDueAt ?? null,
        certificate: sent.certificate
          ? { fileName: sent.certificate.fileName, contentType: sent.certificate.contentType, size: 9, sha256: 'cd'.repeat(32) }
          : null,
      });
      calibrations = [created, ...calibrations];
      return jsonResponse(201, { calibration: created });
    }
    if (url.endsWith('/certificate')) {
      return new Response('%PDF-1.7', { status: 200, headers: { 'Content-Disposition': 'attachment; filename="certificat-2026.pdf"' } });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

function renderAs(role: 'admin' | 'manager' | 'viewer') {
  const auth = fakeAuth();
  const queryClient = createTestQueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const related = [['readings', 'sensor', auth.user?.id, SENSOR]];
  renderWithProviders(<CalibrationPanel sensorId={SENSOR} timeZone="Europe/Paris" related={related} />, {
    auth: { ...auth, user: auth.user && { ...auth.user, role } },
    queryClient,
  });
  const panel = screen.getByRole('region', { name: 'Vérifications du capteur' });
  return { user: userEvent.setup(), panel, invalidate, related };
}

describe('CalibrationPanel', () => {
  it('says when the sensor was never verified', async () => {
    const { panel } = renderAs('manager');
    expect(await within(panel).findByText('Aucune vérification enregistrée.')).toBeInTheDocument();
    expect(within(panel).queryByTestId('calibration-summary')).not.toBeInTheDocument();
    expect(within(panel).getByRole('form', { name: 'Noter une vérification' })).toHaveTextContent(
      'Une vérification ne se modifie ni ne se supprime : une erreur se corrige en notant une nouvelle vérification.',
    );
  });

  it('says a verification dated inside a signed month is not applied to it, and from when it is', async () => {
    calibrations = [
      calibration({
        id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
        verifiedAt: '2026-11-25T09:00:00.000Z',
        offset: 5,
        createdAt: '2026-12-02T09:00:00.000Z',
        appliesFrom: '2026-11-30T23:00:00.000Z',
        amendedPeriod: { from: '2026-11-25T09:00:00.000Z', to: '2026-11-30T23:00:00.000Z' },
      }),
    ];
    const { panel } = renderAs('viewer');
    const amendment = await within(panel).findByTestId('calibration-amendment');
    expect(plain(amendment.textContent)).toBe(
      'Datée d’une période déjà signée : non appliquée au rapport signé, dont les températures restent telles quelles ; appliquée à partir du 1 déc. 2026 à 0 h.',
    );
  });

  it('sums up the verification in force, warns it is overdue, lists the history and downloads a certificate with the token', async () => {
    calibrations = [LATEST, OLDER];
    const { user, panel } = renderAs('viewer');
    const summary = await within(panel).findByTestId('calibration-summary');
    expect(plain(summary.textContent)).toContain('Dernière vérification : 20 nov. 2026 — écart +0,4 °C (corrigé)');
    expect(plain(summary.textContent)).toContain('Prochaine : 20 nov. 2027');
    const due = within(summary).getByTestId('calibration-due');
    expect(plain(due.textContent)).toBe('Vérification en retard depuis le 20 nov. 2027.');
    expect(due).toHaveAttribute('data-tone', 'overdue');

    const items = within(panel).getAllByTestId('calibration-item');
    expect(items).toHaveLength(2);
    const [latest, older] = items as [HTMLElement, HTMLElement];
    expect(plain(latest.textContent)).toContain('20 nov. 2026 à 9 h 30 · par Léa Dubois');
    expect(plain(latest.textContent)).toContain('Méthode : Bain thermostaté, sonde étalon n° 4521');
    expect(plain(latest.textContent)).toContain('Remarque : Joint de porte changé le même jour.');
    expect(plain(within(latest).getByTestId('calibration-offset').textContent)).toBe('Écart : +0,4 °C');
    expect(within(older).getByTestId('calibration-offset').textContent).toContain('\u22120,3\u202F°C');
    expect(within(older).queryByRole('button', { name: /certificat/ })).not.toBeInTheDocument();

    URL.createObjectURL = () => 'blob:certificate';
    URL.revokeObjectURL = () => undefined;
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await user.click(within(latest).getByRole('button', { name: 'Télécharger le certificat certificat-2026.pdf' }));
    expect(await within(panel).findByText(/Fichier téléchargé/)).toBeInTheDocument();
    expect(saved).toEqual(['certificat-2026.pdf']);
    expect(requests.find((request) => request.url.endsWith('/certificate'))).toEqual({
      url: `${LIST}/${LATEST.id}/certificate`,
      method: 'GET',
      auth: 'Bearer token-123',
      body: undefined,
    });
    // A viewer reads the register but notes nothing.
    expect(within(panel).queryByRole('form', { name: 'Noter une vérification' })).not.toBeInTheDocument();
  });

  it('warns a month ahead that the next verification is near', async () => {
    calibrations = [{ ...LATEST, nextDueAt: '2027-12-20T08:30:00.000Z' }];
    const { panel } = renderAs('viewer');
    const due = await within(panel).findByTestId('calibration-due');
    expect(plain(due.textContent)).toBe('Vérification à prévoir avant le 20 déc. 2027.');
    expect(due).toHaveAttribute('data-tone', 'soon');
  });

  it('notes a verification with its certificate in base64, announces it and refreshes what it corrects', async () => {
    const { user, panel, invalidate, related } = renderAs('admin');
    await within(panel).findByText('Aucune vérification enregistrée.');
    const form = within(panel).getByRole('form', { name: 'Noter une vérification' });
    const local = new Date(NOW - new Date(NOW).getTimezoneOffset() * 60_000).toISOString();
    expect(within(form).getByLabelText('Vérifié le')).toHaveValue(local.slice(0, 16));
    const nextYear = new Date(NOW);
    nextYear.setFullYear(nextYear.getFullYear() + 1);
    const nextDay = new Date(nextYear.getTime() - nextYear.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
    expect(within(form).getByLabelText('Prochaine vérification')).toHaveValue(nextDay);
    expect(within(form).getByRole('group', { name: 'Comparaison avec la référence' })).toBeInTheDocument();

    await user.type(within(form).getByLabelText('Méthode et instrument de référence'), 'Bain thermostaté, sonde étalon n° 4521');
    await user.type(within(form).getByLabelText('Écart mesuré (capteur − référence), en °C'), '0.4');
    await user.upload(
      within(form).getByLabelText('Certificat (facultatif)'),
      new File(['%PDF-1.4 ok'], 'certificat.pdf', { type: 'application/pdf' }),
    );
    await user.click(within(form).getByRole('button', { name: 'Enregistrer la vérification' }));

    expect(await within(form).findByRole('status')).toHaveTextContent('Vérification enregistrée.');
    const posts = requests.filter((request) => request.method === 'POST');
    expect(posts).toEqual([
      {
        url: LIST,
        method: 'POST',
        auth: 'Bearer token-123',
        body: {
          verifiedAt: '2027-12-01T10:00:00.000Z',
          method: 'Bain thermostaté, sonde étalon n° 4521',
          offset: 0.4,
          nextDueAt: nextYear.toISOString(),
          certificate: { fileName: 'certificat.pdf', contentType: 'application/pdf', data: btoa('%PDF-1.4 ok') },
        },
      },
    ]);
    // The register shows it, the sensor's corrected readings are read again, the form is ready for the next one.
    expect(await within(panel).findByTestId('calibration-summary')).toHaveTextContent(/écart \+0,4/);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: related[0] });
    expect(within(form).getByLabelText('Méthode et instrument de référence')).toHaveValue('');
    expect(within(form).getByLabelText('Écart mesuré (capteur − référence), en °C')).toHaveValue(null);
  });

  it('sends a negative offset without a certificate, and shows the server’s refusal as it comes', async () => {
    refusal = 'Une vérification date de 31 jours au plus.';
    const { user, panel } = renderAs('manager');
    const form = await within(panel).findByRole('form', { name: 'Noter une vérification' });
    await user.type(within(form).getByLabelText('Méthode et instrument de référence'), 'Sonde de contrôle');
    await user.type(within(form).getByLabelText('Écart mesuré (capteur − référence), en °C'), '-0.3');
    await user.clear(within(form).getByLabelText('Prochaine vérification'));
    await user.click(within(form).getByRole('button', { name: 'Enregistrer la vérification' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(refusal);
    expect(requests.filter((request) => request.method === 'POST').map((request) => request.body)).toEqual([
      { verifiedAt: '2027-12-01T10:00:00.000Z', method: 'Sonde de contrôle', offset: -0.3 },
    ]);
  });

  it('refuses a certificate over 2 MB before sending anything', async () => {
    const { user, panel } = renderAs('admin');
    const form = await within(panel).findByRole('form', { name: 'Noter une vérification' });
    await user.type(within(form).getByLabelText('Méthode et instrument de référence'), 'Bain thermostaté');
    await user.type(within(form).getByLabelText('Écart mesuré (capteur − référence), en °C'), '0.2');
    const input = within(form).getByLabelText('Certificat (facultatif)');
    await user.upload(input, new File([new Uint8Array(3 * MB)], 'scan.pdf', { type: 'application/pdf' }));
    expect(plain(within(form).getByRole('alert').textContent)).toBe('Le fichier pèse 3 Mo : un certificat fait 2 Mo au plus.');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.click(within(form).getByRole('button', { name: 'Enregistrer la vérification' }));
    await waitFor(() => expect(within(form).getByRole('alert')).toHaveTextContent('2 Mo au plus'));
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
  });
});
