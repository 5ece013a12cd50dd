import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { NewSiteForm } from './new-site-form';

const NNBSP = '\u202F';
const exact = { normalizer: (text: string) => text };

afterEach(() => vi.unstubAllGlobals());

it('adds « un magasin », as the Magasins page names them, and says so with narrow spaces inside « »', async () => {
  const calls: unknown[] = [];
  vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { name: string };
    calls.push(body);
    return jsonResponse(201, {
      site: { id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d', name: body.name, timezone: 'Europe/Paris', regionId: null },
    });
  });
  renderWithProviders(<NewSiteForm />);
  expect(screen.queryByRole('button', { name: 'Ajouter le site' })).not.toBeInTheDocument();
  await userEvent.type(screen.getByLabelText('Nouveau magasin'), 'Boutique Opéra');
  await userEvent.click(screen.getByRole('button', { name: 'Ajouter un magasin' }));
  expect(await screen.findByText(`Magasin «${NNBSP}Boutique Opéra${NNBSP}» ajouté.`, exact)).toBeInTheDocument();
  expect(calls).toEqual([{ name: 'Boutique Opéra' }]);
});
