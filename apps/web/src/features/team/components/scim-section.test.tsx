import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { scimBaseUrl } from '../api/scim-queries';
import { ScimCredentials, ScimSection } from './scim-section';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ScimCredentials', () => {
  it('shows the SCIM service’s address and the new token once, each with its copy button', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const baseUrl = scimBaseUrl('https://vigie.example.fr');
    expect(baseUrl).toBe('https://vigie.example.fr/api/scim/v2');
    render(<ScimCredentials baseUrl={baseUrl} token="scim_abcdefghijklmnopqrstuvwxyz" />);
    const panel = screen.getByTestId('scim-token');
    expect(within(panel).getByRole('status')).toHaveTextContent('Jeton SCIM créé. Copiez-le maintenant dans votre fournisseur d’identité');
    expect(within(panel).getByLabelText('URL du service SCIM')).toHaveValue('https://vigie.example.fr/api/scim/v2');
    expect(within(panel).getByLabelText('Jeton SCIM')).toHaveValue('scim_abcdefghijklmnopqrstuvwxyz');
    await user.click(within(panel).getByRole('button', { name: 'Copier le jeton' }));
    expect(writeText).toHaveBeenCalledWith('scim_abcdefghijklmnopqrstuvwxyz');
    expect(await within(panel).findByText('Jeton copié.')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Copier l’URL' }));
    expect(writeText).toHaveBeenCalledWith('https://vigie.example.fr/api/scim/v2');
  });
});

describe('ScimSection', () => {
  it('asks before making a token (it replaces the one in force), then shows it with the address of this server', async () => {
    const user = userEvent.setup();
    const calls: { url: string; method: string }[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push({ url, method: init?.method ?? 'GET' });
      return jsonResponse(201, { token: 'scim_nouveau' });
    });
    renderWithProviders(<ScimSection />);
    await user.click(screen.getByRole('button', { name: 'Créer ou remplacer le jeton SCIM' }));
    const dialog = screen.getByRole('dialog', { name: 'Créer un nouveau jeton SCIM\u202F?' });
    expect(dialog).toHaveTextContent('votre fournisseur d’identité sera refusé tant que vous ne lui aurez pas donné le nouveau');
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    expect(calls).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Créer ou remplacer le jeton SCIM' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Créer le jeton' }));
    const panel = await screen.findByTestId('scim-token');
    expect(calls).toEqual([{ url: '/api/organization/scim-token', method: 'POST' }]);
    expect(within(panel).getByLabelText('Jeton SCIM')).toHaveValue('scim_nouveau');
    expect(within(panel).getByLabelText('URL du service SCIM')).toHaveValue(`${window.location.origin}/api/scim/v2`);
  });
});
