import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { TrashList } from './trash-list';

const trashed = {
  kind: 'emitter',
  id: '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c',
  name: 'Passerelle Opéra',
  serial: null,
  model: null,
  deletedAt: '2026-11-20T09:30:00.000Z',
  purgeAt: '2026-12-20T09:30:00.000Z',
};

let trash: unknown[];
let requests: string[];

beforeEach(() => {
  requests = [];
  trash = [trashed];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    requests.push(`${method} ${url}`);
    if (method === 'GET' && url === '/api/trash') return jsonResponse(200, { devices: trash });
    if (method === 'POST' && url === `/api/emitter/${trashed.id}/restore`) {
      trash = [];
      return jsonResponse(200, { emitter: { id: trashed.id, name: trashed.name } });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TrashList', () => {
  it('lists a deleted device with its kind, name and erasure date, and restores it', async () => {
    renderWithProviders(<TrashList />);
    const item = await screen.findByTestId('trashed-device');
    expect(within(item).getByRole('heading', { name: 'Passerelle Opéra' })).toBeInTheDocument();
    expect(item).toHaveTextContent('Émetteur');
    expect(item).toHaveTextContent('Supprimé définitivement le 20 décembre 2026');

    await userEvent.setup().click(within(item).getByRole('button', { name: 'Restaurer Passerelle Opéra' }));
    await waitFor(() => expect(screen.queryByTestId('trashed-device')).not.toBeInTheDocument());
    expect(requests).toContain(`POST /api/emitter/${trashed.id}/restore`);
  });

  it('says when the trash is empty', async () => {
    trash = [];
    renderWithProviders(<TrashList />);
    expect(await screen.findByRole('heading', { name: 'La corbeille est vide' })).toBeInTheDocument();
  });
});
