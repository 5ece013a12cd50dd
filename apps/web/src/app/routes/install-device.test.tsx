import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import InstallDeviceRoute from './install-device';

const UNKNOWN = 'Appareil introuvable : vérifiez le numéro de série et le code de l’étiquette.';
const SERIAL = 'VIG-TH1-0042';
const CODE = 'K7M2-Q9XR-4TPW';
const OPERA = '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
const LYON = '8d2a7b3f-4c5e-4f60-9b0c-1d2e3f4a5b6c';
const SENSOR_ID = '5d1c3f8e-2b4a-4c6d-9e8f-7a6b5c4d3e2f';
const hours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const sites = [
  { id: OPERA, name: 'Boutique Opéra', timezone: 'Europe/Paris', openingHours: hours, regionId: null },
  { id: LYON, name: 'Lyon Part-Dieu', timezone: 'Europe/Paris', openingHours: hours, regionId: null },
];

type Answer = { status: number; body: unknown };
let checks: unknown[];
let claims: unknown[];
/** The server's answers to the next checks and claims, in order; a right label otherwise. */
let checkAnswers: Answer[];
let claimAnswers: Answer[];

const sensor = (name: string, siteId: string) => ({
  id: SENSOR_ID,
  name,
  siteId,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  serial: SERIAL,
  model: 'Vigie TH-1',
  status: 'never',
  lastSeenAt: null,
  latest: {},
  battery: null,
  inactivityTimeoutSeconds: 900,
  emitterId: null,
});

beforeEach(() => {
  checks = [];
  claims = [];
  checkAnswers = [];
  claimAnswers = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/sites') return jsonResponse(200, { sites });
    if (url === '/api/devices/claim/check' && method === 'POST') {
      checks.push(JSON.parse(String(init?.body)));
      const answer = checkAnswers.shift() ?? { status: 200, body: { device: { serial: SERIAL, model: 'Vigie TH-1', kind: 'sensor' } } };
      return jsonResponse(answer.status, answer.body);
    }
    if (url === '/api/devices/claim' && method === 'POST') {
      const body = JSON.parse(String(init?.body)) as { name: string; siteId: string };
      claims.push(body);
      const answer = claimAnswers.shift() ?? { status: 201, body: { sensor: sensor(body.name, body.siteId) } };
      return jsonResponse(answer.status, answer.body);
    }
    if (url === `/api/sensor/${SENSOR_ID}`) return jsonResponse(200, { sensor: sensor('Vitrine crèmerie', OPERA) });
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderInstaller() {
  const user = userEvent.setup();
  renderWithProviders(<InstallDeviceRoute />);
  expect(screen.getByRole('heading', { level: 1, name: 'Installer un appareil' })).toBeInTheDocument();
  return user;
}

type User = ReturnType<typeof userEvent.setup>;

/** Replaces a field's text, pasted at once (typing each key is slow on a loaded machine). */
async function fill(user: User, field: HTMLElement, text: string) {
  await user.clear(field);
  if (text) await user.paste(text);
}

async function typeLabel(user: User, serial: string, code: string) {
  await fill(user, screen.getByLabelText('Numéro de série'), serial);
  await fill(user, screen.getByLabelText('Code de l’étiquette'), code);
  await user.click(screen.getByRole('button', { name: 'Continuer' }));
}

const stepTwo = () => screen.findByRole('heading', { name: /^2\. Où est-il et que surveille-t-il/ });

// Four screens in a row per test: more than the default 5 s on a loaded 2-core machine.
describe('InstallDeviceRoute', { timeout: 20_000 }, () => {
  it('checks the label at step 1: a wrong code stays there, on its field, and a right one names the model found', async () => {
    checkAnswers = [{ status: 404, body: { message: UNKNOWN } }];
    const user = renderInstaller();
    await typeLabel(user, SERIAL, 'AAAA-BBBB-CCCC');

    const code = screen.getByLabelText('Code de l’étiquette');
    expect(await screen.findByText(UNKNOWN)).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription(UNKNOWN);
    expect(code).toHaveFocus();
    expect(screen.getByLabelText('Numéro de série')).toHaveValue(SERIAL);
    expect(screen.getByLabelText('Numéro de série')).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('heading', { name: /^2\./ })).not.toBeInTheDocument();
    expect(claims).toEqual([]);

    // Corrected in place: the serial is still there.
    await fill(user, code, CODE);
    await user.click(screen.getByRole('button', { name: 'Continuer' }));
    expect(await stepTwo()).toHaveFocus();
    expect(screen.getByText('Capteur Vigie TH-1 reconnu')).toBeInTheDocument();
    expect(screen.getByText(SERIAL)).toBeInTheDocument();
    expect(checks).toEqual([
      { serial: SERIAL, claimCode: 'AAAA-BBBB-CCCC' },
      { serial: SERIAL, claimCode: CODE },
    ]);
    expect(claims).toEqual([]);

    await fill(user, screen.getByLabelText('Nom de l’appareil'), 'Vitrine crèmerie');
    await user.click(screen.getByRole('button', { name: 'Installer l’appareil' }));
    expect(await screen.findByText('En attente du premier signal…')).toBeInTheDocument();
    expect(claims).toEqual([
      { serial: SERIAL, claimCode: CODE, siteId: OPERA, name: 'Vitrine crèmerie', preset: 'chilled_very_perishable' },
    ]);
  });

  it('keeps the name, the shop and the use chosen at step 2 when the label is changed', async () => {
    const user = renderInstaller();
    await typeLabel(user, SERIAL, CODE);
    await stepTwo();
    expect(await screen.findByRole('option', { name: 'Lyon Part-Dieu' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Magasin'), 'Lyon Part-Dieu');
    await fill(user, screen.getByLabelText('Nom de l’appareil'), 'Congélateur réserve');
    await user.click(screen.getByRole('radio', { name: /Congélateur – surgelés/ }));

    await user.click(screen.getByRole('button', { name: 'Changer d’étiquette' }));
    // Another label: its serial and code are typed afresh.
    expect(screen.getByLabelText('Numéro de série')).toHaveValue('');
    checkAnswers = [{ status: 200, body: { device: { serial: 'VIG-TH1-0043', model: 'Vigie TH-1', kind: 'sensor' } } }];
    await typeLabel(user, 'VIG-TH1-0043', 'ZZZZ-YYYY-XXXX');
    await stepTwo();
    expect(screen.getByText('VIG-TH1-0043')).toBeInTheDocument();
    expect(screen.getByLabelText('Magasin')).toHaveValue(LYON);
    expect(screen.getByLabelText('Nom de l’appareil')).toHaveValue('Congélateur réserve');
    expect(screen.getByRole('radio', { name: /Congélateur – surgelés/ })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Installer l’appareil' }));
    await screen.findByText('En attente du premier signal…');
    expect(claims).toEqual([
      { serial: 'VIG-TH1-0043', claimCode: 'ZZZZ-YYYY-XXXX', siteId: LYON, name: 'Congélateur réserve', preset: 'frozen' },
    ]);
  });

  it('keeps the serial when the claim refused the label after all, and asks for the code again on its field', async () => {
    claimAnswers = [{ status: 404, body: { message: UNKNOWN } }];
    const user = renderInstaller();
    await typeLabel(user, SERIAL, CODE);
    await stepTwo();
    await fill(user, screen.getByLabelText('Nom de l’appareil'), 'Vitrine crèmerie');
    await user.click(screen.getByRole('button', { name: 'Installer l’appareil' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(UNKNOWN);

    await user.click(screen.getByRole('button', { name: 'Changer d’étiquette' }));
    expect(screen.getByLabelText('Numéro de série')).toHaveValue(SERIAL);
    const code = screen.getByLabelText('Code de l’étiquette');
    expect(code).toHaveValue('');
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription(UNKNOWN);

    await fill(user, code, CODE);
    await user.click(screen.getByRole('button', { name: 'Continuer' }));
    await stepTwo();
    expect(screen.getByLabelText('Nom de l’appareil')).toHaveValue('Vitrine crèmerie');
  });

  it('says why a right label cannot be installed, without blaming a field', async () => {
    const installed = 'Cet appareil est déjà installé dans votre organisation (« Vitrine crèmerie »).';
    checkAnswers = [
      { status: 409, body: { message: installed } },
      { status: 429, body: { message: 'Trop de codes d’étiquette invalides. Réessayez dans 15 min.' } },
      { status: 200, body: { device: { serial: 'VIG-G1-0001', model: null, kind: 'emitter' } } },
    ];
    const user = renderInstaller();
    await typeLabel(user, SERIAL, CODE);
    expect(await screen.findByRole('alert')).toHaveTextContent(installed);
    expect(screen.getByLabelText('Code de l’étiquette')).not.toHaveAttribute('aria-invalid');

    await user.click(screen.getByRole('button', { name: 'Continuer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Trop de codes d’étiquette invalides. Réessayez dans 15 min.');
    expect(screen.queryByRole('heading', { name: /^2\./ })).not.toBeInTheDocument();

    // A transmitter with no model in its batch: named by its kind, and no alert rule chosen for it.
    await typeLabel(user, 'VIG-G1-0001', CODE);
    await stepTwo();
    expect(screen.getByText('Émetteur reconnu')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Autre mesure, sans alerte/ })).toBeChecked();
  });
});
