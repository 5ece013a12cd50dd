import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { DigestPanel } from './digest-panel';

let enabled: boolean;
let refuse: boolean;
let sent: unknown[];

beforeEach(() => {
  enabled = false;
  refuse = false;
  sent = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url !== '/api/user/digest') return jsonResponse(404, { message: 'Introuvable' });
    if (method === 'GET') return jsonResponse(200, { digest: { enabled, hour: 7 } });
    const body = JSON.parse(String(init?.body)) as { enabled: boolean };
    sent.push(body);
    if (refuse) return jsonResponse(400, { message: 'enabled doit valoir true ou false.' });
    enabled = body.enabled;
    return jsonResponse(200, { digest: { enabled, hour: 7 } });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('DigestPanel', () => {
  it('asks for the morning digest, says when it comes, and stops it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<DigestPanel />);
    const box = await screen.findByRole('checkbox', { name: 'Recevoir chaque matin le résumé des alertes de la veille' });
    expect(box).not.toBeChecked();
    expect(screen.getByText(/à partir de 7 h \(heure de vos magasins\)/)).toBeInTheDocument();

    await user.click(box);
    await waitFor(() => expect(box).toBeChecked());
    expect(sent).toEqual([{ enabled: true }]);
    expect(screen.getByRole('status')).toHaveTextContent('Résumé demandé : le premier arrive demain matin.');

    await user.click(box);
    await waitFor(() => expect(box).not.toBeChecked());
    expect(sent).toEqual([{ enabled: true }, { enabled: false }]);
    expect(screen.getByRole('status')).toHaveTextContent('Résumé arrêté.');
  });

  it('shows the server’s refusal and keeps the setting as it was', async () => {
    refuse = true;
    const user = userEvent.setup();
    renderWithProviders(<DigestPanel />);
    const box = await screen.findByRole('checkbox');
    await user.click(box);
    expect(await screen.findByRole('alert')).toHaveTextContent('enabled doit valoir true ou false.');
    expect(box).not.toBeChecked();
  });
});
