import type { Emitter } from '@vigie/contract';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { DeviceDetail } from './device-detail';

const emitter: Emitter = {
  id: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  name: 'Passerelle Lyon',
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-01T10:00:00.000Z',
  serial: 'VG-0001',
  model: 'Vigie Relais R1',
  status: 'online',
  lastSeenAt: '2026-05-01T10:00:00.000Z',
  latest: {},
  battery: null,
  inactivityTimeoutSeconds: 300,
  siteId: '6b5c4d3e-2f10-4bac-9d8e-7f6a5b4c3d2e',
};

beforeEach(() => {
  vi.stubGlobal('fetch', async () => jsonResponse(404, { message: 'Introuvable' }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderAs(role: 'admin' | 'manager' | 'viewer') {
  const auth = fakeAuth();
  renderWithProviders(<DeviceDetail kind="emitter" device={emitter} />, { auth: { ...auth, user: auth.user && { ...auth.user, role } } });
}

describe('DeviceDetail', () => {
  it.each(['admin', 'manager'] as const)('offers a %s the rename, offline delay, token and deletion controls', (role) => {
    renderAs(role);
    expect(screen.getByRole('heading', { level: 1, name: 'Passerelle Lyon' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Renommer' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Enregistrer le délai' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Générer un nouveau jeton' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Supprimer Passerelle Lyon' })).toBeInTheDocument();
    expect(screen.getByText(/Configurez l’appareil avec son jeton ci-dessous/)).toBeInTheDocument();
  });

  it('shows a viewer the device without any control to change, re-key or delete it', () => {
    renderAs('viewer');
    expect(screen.getByRole('heading', { level: 1, name: 'Passerelle Lyon' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'État' })).toHaveTextContent('VG-0001');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Réglages' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Jeton de l’appareil' })).not.toBeInTheDocument();
    expect(screen.getByText('Aucune mesure reçue pour l’instant.')).toBeInTheDocument();
  });
});
