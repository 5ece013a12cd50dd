import type { MyPhoneResponse } from '@vigie/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { PhonePanel } from './phone-panel';

const PENDING = { number: '+33612345678', display: '+33 6 12 34 56 78', verified: false, verifiedAt: null };
const VERIFIED = { ...PENDING, verified: true, verifiedAt: '2026-11-23T13:10:00.000Z' };

let mine: MyPhoneResponse;
let requests: { method: string; url: string; body: unknown }[];
/** The answer to the next PUT /api/user/phone, when it is not a success. */
let refusal: { status: number; message: string } | null;

beforeEach(() => {
  mine = { phone: null, quietHours: null, channels: { sms: true, call: true } };
  requests = [];
  refusal = null;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    if (method !== 'GET') requests.push({ method, url, body });
    if (url === '/api/user/phone' && method === 'GET') return jsonResponse(200, mine);
    if (url === '/api/user/phone' && method === 'PUT') {
      if (refusal) return jsonResponse(refusal.status, { message: refusal.message });
      mine = { ...mine, phone: PENDING };
      return jsonResponse(200, mine);
    }
    if (url === '/api/user/phone/verify' && method === 'POST') {
      mine = { ...mine, phone: VERIFIED };
      return jsonResponse(200, mine);
    }
    if (url === '/api/user/phone' && method === 'DELETE') {
      mine = { ...mine, phone: null };
      return new Response(null, { status: 204 });
    }
    if (url === '/api/user/quiet-hours' && method === 'PUT') {
      mine = { ...mine, quietHours: (body as Pick<MyPhoneResponse, 'quietHours'>).quietHours };
      return jsonResponse(200, mine);
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PhonePanel', () => {
  it('sends the number, asks for the code received by SMS, and confirms it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PhonePanel />);
    expect(await screen.findByText('Aucun numéro enregistré.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Code reçu par SMS')).toBeNull();

    const number = screen.getByLabelText('Numéro de portable');
    expect(number).toHaveAttribute('type', 'tel');
    expect(number).toHaveAttribute('autocomplete', 'tel');
    await user.type(number, '06 12 34 56 78');
    await user.click(screen.getByRole('button', { name: 'Envoyer un code' }));

    expect(await screen.findByText('Code envoyé au +33 6 12 34 56 78 : saisissez-le ci-dessous.')).toBeInTheDocument();
    expect(requests).toEqual([{ method: 'PUT', url: '/api/user/phone', body: { phone: '06 12 34 56 78' } }]);
    expect(screen.getByTestId('phone-number')).toHaveTextContent('+33 6 12 34 56 78 À confirmer');

    const code = screen.getByLabelText('Code reçu par SMS');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.click(screen.getByRole('button', { name: 'Confirmer' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Saisissez les 6 chiffres reçus par SMS.');
    expect(requests).toHaveLength(1);

    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Confirmer' }));
    expect(await screen.findByText('Numéro confirmé : l’astreinte peut vous envoyer des SMS et vous appeler.')).toBeInTheDocument();
    expect(requests[1]).toEqual({ method: 'POST', url: '/api/user/phone/verify', body: { code: '123456' } });
    expect(screen.getByTestId('phone-number')).toHaveTextContent('+33 6 12 34 56 78 Confirmé');
    expect(screen.queryByLabelText('Code reçu par SMS')).toBeNull();
  });

  it('shows the server’s French reason when the code cannot be sent', async () => {
    refusal = { status: 429, message: 'Trop de codes demandés : réessayez dans une heure.' };
    const user = userEvent.setup();
    renderWithProviders(<PhonePanel />);
    await user.type(await screen.findByLabelText('Numéro de portable'), '06 12 34 56 78');
    await user.click(screen.getByRole('button', { name: 'Envoyer un code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Trop de codes demandés : réessayez dans une heure.');
    expect(screen.queryByLabelText('Code reçu par SMS')).toBeNull();
  });

  it('says when this server sends no SMS, and offers no code to send', async () => {
    mine = { ...mine, channels: { sms: false, call: false } };
    renderWithProviders(<PhonePanel />);
    expect(
      await screen.findByText('L’envoi de SMS n’est pas configuré sur ce serveur : l’astreinte vous préviendra par notification poussée.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Envoyer un code' })).toBeDisabled();
  });

  it('removes a confirmed number', async () => {
    mine = { ...mine, phone: VERIFIED };
    const user = userEvent.setup();
    renderWithProviders(<PhonePanel />);
    expect(await screen.findByTestId('phone-number')).toHaveTextContent('+33 6 12 34 56 78 Confirmé');
    expect(screen.queryByLabelText('Code reçu par SMS')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Retirer le numéro' }));
    expect(await screen.findByText('Aucun numéro enregistré.')).toBeInTheDocument();
    expect(screen.getByText('Numéro retiré.')).toHaveAttribute('role', 'status');
    expect(requests).toEqual([{ method: 'DELETE', url: '/api/user/phone', body: undefined }]);
    expect(screen.queryByRole('button', { name: 'Retirer le numéro' })).toBeNull();
  });

  it('sets quiet hours, then none', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PhonePanel />);
    const from = await screen.findByLabelText('Heures calmes : de');
    const to = screen.getByLabelText('Heures calmes : à');
    expect(from).toHaveAttribute('type', 'time');
    expect(from).toHaveAccessibleDescription(/les alertes critiques le sont toujours/);

    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Indiquez le début et la fin des heures calmes, ou choisissez « Aucune ».');

    await user.type(from, '22:00');
    await user.type(to, '07:00');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Heures calmes enregistrées.')).toBeInTheDocument();
    expect(requests).toEqual([{ method: 'PUT', url: '/api/user/quiet-hours', body: { quietHours: { from: '22:00', to: '07:00' } } }]);

    await user.click(screen.getByRole('button', { name: 'Aucune' }));
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[1]).toEqual({ method: 'PUT', url: '/api/user/quiet-hours', body: { quietHours: null } });
    expect(await screen.findByText('Plus d’heures calmes : tous les avertissements vous sont poussés.')).toBeInTheDocument();
    expect(from).toHaveValue('');
    expect(to).toHaveValue('');
  });
});
