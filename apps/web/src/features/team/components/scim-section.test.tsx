import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { scimBaseUrl } from '../api/scim-queries';
import { ScimCredentials } from './scim-section';

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
