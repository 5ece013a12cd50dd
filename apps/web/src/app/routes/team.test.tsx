import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toast';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import TeamRoute from './team';

const me = fakeAuth().user;
const members = [
  { id: me?.id ?? '', name: 'Camille Martin', email: 'camille@boutique.fr', role: 'admin' },
  { id: '2c1d6a3e-7b8f-4a9c-8d0e-1f2a3b4c5d6e', name: null, email: 'lea@boutique.fr', role: 'viewer' },
];
const future = new Date(Date.now() + 3 * 86_400_000).toISOString();
const past = new Date(Date.now() - 86_400_000).toISOString();
const invitations = [
  { id: '3d2e7b4f-8c9a-4bad-9e1f-2a3b4c5d6e7f', email: 'nouveau@boutique.fr', role: 'manager', expiresAt: future },
  { id: '4e3f8c5a-9dab-4cbe-af20-3b4c5d6e7f80', email: 'ancien@boutique.fr', role: 'viewer', expiresAt: past },
];

const apiKeys = [
  {
    id: '5f4a9d6b-0ebc-4dcf-b031-4c5d6e7f8091',
    name: 'GTB du siège',
    role: 'viewer',
    scope: null,
    prefix: 'vk_Ab12Cd34',
    createdAt: past,
    expiresAt: null,
    lastUsedAt: null,
  },
];

type Call = { url: string; method: string; body: unknown };
let calls: Call[];
let answer: (call: Call) => Response | undefined;

beforeEach(() => {
  calls = [];
  answer = () => undefined;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const call = { url, method: init?.method ?? 'GET', body: init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined };
    calls.push(call);
    const custom = answer(call);
    if (custom) return custom;
    if (url === '/api/members') return jsonResponse(200, { members });
    if (url === '/api/invitations' && call.method === 'GET') return jsonResponse(200, { invitations });
    if (url === '/api/api-keys' && call.method === 'GET') return jsonResponse(200, { apiKeys });
    if (url === '/api/organization/security' && call.method === 'GET')
      return jsonResponse(200, { policy: { requireTotpForAdmins: false } });
    if (url === '/api/organization/sso' && call.method === 'GET') return jsonResponse(200, { sso: null });
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderAs(role: 'admin' | 'manager' | 'viewer') {
  const auth = fakeAuth();
  return renderWithProviders(
    <>
      <TeamRoute />
      <Toaster />
    </>,
    { auth: { ...auth, user: auth.user && { ...auth.user, role } } },
  );
}

describe('TeamRoute', () => {
  it('lists the members with a labelled role choice, and the pending invitations with their expiry', async () => {
    renderAs('admin');
    expect(screen.getByRole('heading', { level: 1, name: 'Équipe' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Membres de l’équipe' });
    expect(within(list).getByText('Sans nom')).toBeInTheDocument();
    expect(within(list).getByLabelText('Rôle de lea@boutique.fr')).toHaveValue('viewer');
    expect(within(list).getByRole('button', { name: 'Retirer lea@boutique.fr' })).toBeInTheDocument();
    // The only admin: neither a role choice nor « Retirer », which the server would refuse.
    expect(within(list).queryByLabelText('Rôle de Camille Martin')).not.toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: 'Retirer Camille Martin' })).not.toBeInTheDocument();
    expect(within(list).getByText('Seul administrateur : ne peut être ni retiré ni rétrogradé')).toBeInTheDocument();

    const pending = await screen.findByRole('list', { name: 'Invitations en attente' });
    const items = within(pending).getAllByTestId('invitation');
    expect(items[0]).toHaveTextContent('Responsable');
    expect(items[0]).toHaveTextContent(/Expire le \d+ \p{L}+ 20\d\d/u);
    expect(items[1]).toHaveTextContent('Expirée');
    expect(within(pending).getByRole('button', { name: 'Renvoyer l’invitation de ancien@boutique.fr' })).toBeInTheDocument();
  });

  it('invites an address as « Lecteur », says so, and refuses an invalid address in French', async () => {
    const user = userEvent.setup();
    answer = (call) =>
      call.url === '/api/invitations' && call.method === 'POST'
        ? jsonResponse(201, { invitation: { id: invitations[0]?.id, email: 'paul@boutique.fr', role: 'viewer', expiresAt: future } })
        : undefined;
    renderAs('admin');
    const form = screen.getByRole('form', { name: 'Inviter un membre' });
    await user.type(within(form).getByLabelText('Adresse e-mail'), 'paul@boutique');
    await user.click(within(form).getByRole('button', { name: 'Envoyer l’invitation' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('L’adresse e-mail n’est pas valide');
    expect(within(form).getByLabelText('Adresse e-mail')).toHaveFocus();

    await user.type(within(form).getByLabelText('Adresse e-mail'), '.fr');
    await user.selectOptions(within(form).getByLabelText('Rôle'), 'Lecteur');
    await user.click(within(form).getByRole('button', { name: 'Envoyer l’invitation' }));
    expect(await within(form).findByText('Invitation envoyée à paul@boutique.fr (Lecteur).')).toHaveAttribute('role', 'status');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ email: 'paul@boutique.fr', role: 'viewer' });
  });

  it('hands over the link to the admin when this server sends no e-mail, instead of saying it was sent', async () => {
    const user = userEvent.setup();
    const link = 'http://localhost:3000/invitation#AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    answer = (call) =>
      call.url === '/api/invitations' && call.method === 'POST'
        ? jsonResponse(201, {
            invitation: { id: invitations[0]?.id, email: 'paul@boutique.fr', role: 'viewer', expiresAt: future },
            emailSent: false,
            link,
          })
        : undefined;
    renderAs('admin');
    const form = screen.getByRole('form', { name: 'Inviter un membre' });
    await user.type(within(form).getByLabelText('Adresse e-mail'), 'paul@boutique.fr');
    await user.click(within(form).getByRole('button', { name: 'Envoyer l’invitation' }));
    const panel = await within(form).findByTestId('handover-link');
    expect(within(panel).getByRole('status')).toHaveTextContent('Ce serveur n’envoie pas d’e-mail');
    expect(within(panel).getByLabelText('Lien d’invitation pour paul@boutique.fr')).toHaveValue(link);
    expect(within(form).queryByText(/Invitation envoyée/)).not.toBeInTheDocument();
  });

  it('gives an invited store manager one shop of a chain as what they will see', async () => {
    const user = userEvent.setup();
    const hours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
    const lyon = {
      id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
      name: 'Lyon Part-Dieu',
      timezone: 'Europe/Paris',
      openingHours: hours,
      regionId: null,
    };
    const lille = { ...lyon, id: '6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e', name: 'Lille Centre' };
    answer = (call) => {
      if (call.url === '/api/sites') return jsonResponse(200, { sites: [lyon, lille] });
      if (call.url === '/api/regions')
        return jsonResponse(200, { regions: [{ id: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', name: 'Nord' }] });
      if (call.url === '/api/invitations' && call.method === 'POST')
        return jsonResponse(201, { invitation: { id: invitations[0]?.id, email: 'lyon@chaine.fr', role: 'manager', expiresAt: future } });
      return undefined;
    };
    renderAs('admin');
    const form = screen.getByRole('form', { name: 'Inviter un membre' });
    const scope = await within(form).findByLabelText('Périmètre');
    expect(within(scope).getByRole('option', { name: 'Toute l’organisation' })).toBeInTheDocument();
    expect(within(scope).getByRole('option', { name: 'Nord' })).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Adresse e-mail'), 'lyon@chaine.fr');
    await user.selectOptions(within(form).getByLabelText('Rôle'), 'Responsable');
    await user.selectOptions(scope, 'Lyon Part-Dieu');
    await user.click(within(form).getByRole('button', { name: 'Envoyer l’invitation' }));
    await within(form).findByText(/Invitation envoyée à lyon@chaine.fr/);
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      email: 'lyon@chaine.fr',
      role: 'manager',
      scope: { siteIds: [lyon.id], regionIds: [] },
    });
  });

  it('says what each pending invitation will see: a shop, a region, or the whole organization', async () => {
    const hours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
    const lyon = {
      id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
      name: 'Lyon Part-Dieu',
      timezone: 'Europe/Paris',
      openingHours: hours,
      regionId: null,
    };
    const nord = { id: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', name: 'Nord' };
    const scopedInvitations = [
      { ...invitations[0], scope: { siteIds: [lyon.id], regionIds: [] } },
      { ...invitations[1], scope: { siteIds: [], regionIds: [nord.id] } },
      { id: '5f4a9d6b-0ebc-4dcf-b031-4c5d6e7f8091', email: 'siege@chaine.fr', role: 'admin', scope: null, expiresAt: future },
    ];
    answer = (call) => {
      if (call.url === '/api/sites') return jsonResponse(200, { sites: [lyon] });
      if (call.url === '/api/regions') return jsonResponse(200, { regions: [nord] });
      if (call.url === '/api/invitations' && call.method === 'GET') return jsonResponse(200, { invitations: scopedInvitations });
      return undefined;
    };
    renderAs('admin');
    const pending = await screen.findByRole('list', { name: 'Invitations en attente' });
    const items = within(pending).getAllByTestId('invitation');
    await waitFor(() => expect(items[0]?.textContent).toContain('Accès\u202F: Lyon Part-Dieu'));
    expect(items[1]?.textContent).toContain('Accès\u202F: région Nord');
    expect(items[2]?.textContent).toContain('Accès\u202F: toute l’organisation');
  });

  it('changes what a member of a chain sees, from the whole organization to one region, and says so', async () => {
    const user = userEvent.setup();
    const hours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
    const lyon = {
      id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
      name: 'Lyon Part-Dieu',
      timezone: 'Europe/Paris',
      openingHours: hours,
      regionId: null,
    };
    const lille = { ...lyon, id: '6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e', name: 'Lille Centre' };
    const nord = { id: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', name: 'Nord' };
    const scoped = [
      { ...members[0], scope: null },
      { ...members[1], scope: { siteIds: [lyon.id], regionIds: [] } },
    ];
    answer = (call) => {
      if (call.url === '/api/sites') return jsonResponse(200, { sites: [lyon, lille] });
      if (call.url === '/api/regions') return jsonResponse(200, { regions: [nord] });
      if (call.url === '/api/members') return jsonResponse(200, { members: scoped });
      if (call.method === 'PUT') return jsonResponse(200, { member: { ...scoped[1], scope: { siteIds: [], regionIds: [nord.id] } } });
      return undefined;
    };
    renderAs('admin');
    const select = await screen.findByLabelText('Périmètre de lea@boutique.fr');
    await waitFor(() => expect(select).toHaveValue(`site:${lyon.id}`));
    // The only admin sees the whole organization, and keeps it.
    expect(screen.queryByLabelText('Périmètre de Camille Martin')).not.toBeInTheDocument();
    await user.selectOptions(select, 'Nord');
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      url: `/api/members/${members[1]?.id}`,
      body: { scope: { siteIds: [], regionIds: [nord.id] } },
    });
    expect(await screen.findByText('Périmètre de lea@boutique.fr : région Nord.')).toBeInTheDocument();
  });

  it('shows the server’s 409 message when the address already has an account', async () => {
    const user = userEvent.setup();
    answer = (call) =>
      call.url === '/api/invitations' && call.method === 'POST'
        ? jsonResponse(409, { message: 'Cette adresse a déjà un compte Vigie.' })
        : undefined;
    renderAs('admin');
    const form = screen.getByRole('form', { name: 'Inviter un membre' });
    await user.type(within(form).getByLabelText('Adresse e-mail'), 'lea@boutique.fr');
    await user.click(within(form).getByRole('button', { name: 'Envoyer l’invitation' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Cette adresse a déjà un compte Vigie.');
  });

  it('changes a role, and shows the 409 that keeps the last admin', async () => {
    const user = userEvent.setup();
    // Two admins on screen, but the other one was just demoted elsewhere: the server says no.
    const twoAdmins = [members[0], { ...members[1], role: 'admin' }];
    answer = (call) => {
      if (call.url === '/api/members') return jsonResponse(200, { members: twoAdmins });
      if (call.method !== 'PUT') return undefined;
      return call.url.endsWith(members[1]?.id ?? '')
        ? jsonResponse(200, { member: { ...members[1], role: 'manager' } })
        : jsonResponse(409, { message: 'L’organisation doit garder au moins un administrateur.' });
    };
    renderAs('admin');
    await user.selectOptions(await screen.findByLabelText('Rôle de lea@boutique.fr'), 'Responsable');
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    // The narrow no-break space before « : » reads as a space once the text is normalized.
    expect(await screen.findByText('Rôle de lea@boutique.fr : Responsable.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ role: 'manager' });

    await user.selectOptions(screen.getByLabelText('Rôle de Camille Martin'), 'Lecteur');
    expect(await screen.findByRole('alert')).toHaveTextContent('L’organisation doit garder au moins un administrateur.');
    await waitFor(() => expect(screen.getByLabelText('Rôle de Camille Martin')).toHaveValue('admin'));
  });

  it('requires two-factor authentication of admins, or says why the server refused', async () => {
    const user = userEvent.setup();
    let refuse = true;
    answer = (call) => {
      if (call.url !== '/api/organization/security' || call.method !== 'PUT') return undefined;
      return refuse
        ? jsonResponse(409, {
            message: 'Activez d’abord la double authentification sur votre propre compte, pour ne pas vous en fermer l’accès.',
          })
        : jsonResponse(200, { policy: { requireTotpForAdmins: true } });
    };
    renderAs('admin');
    const box = await screen.findByRole('checkbox', { name: 'Exiger la double authentification pour les administrateurs' });
    await waitFor(() => expect(box).toBeEnabled());
    await user.click(box);
    expect(await screen.findByRole('alert')).toHaveTextContent('Activez d’abord la double authentification sur votre propre compte');
    expect(box).not.toBeChecked();

    refuse = false;
    await user.click(box);
    await waitFor(() => expect(box).toBeChecked());
    expect(await screen.findByText(/^Enregistré\s: les administrateurs sans double authentification/)).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      { requireTotpForAdmins: true },
      { requireTotpForAdmins: true },
    ]);
  });

  it('sets single sign-on: the provider, its domains and roles, without sending an empty secret again', async () => {
    const user = userEvent.setup();
    const stored = {
      issuer: 'https://idp.boutique.fr',
      clientId: 'vigie',
      domains: ['boutique.fr'],
      defaultRole: 'viewer',
      groupRoles: { Qualité: 'manager' },
      enforced: true,
    };
    answer = (call) => (call.url === '/api/organization/sso' && call.method === 'PUT' ? jsonResponse(200, { sso: stored }) : undefined);
    renderAs('admin');
    const form = await screen.findByRole('form', { name: 'Authentification unique' });
    await user.type(within(form).getByLabelText('Émetteur (issuer)'), 'https://idp.boutique.fr');
    await user.type(within(form).getByLabelText('Identifiant du client'), 'vigie');
    await user.type(within(form).getByLabelText('Secret du client'), 's3cret');
    await user.type(within(form).getByLabelText('Domaines des adresses e-mail'), '@Boutique.fr');
    await user.type(within(form).getByLabelText('Rôles des groupes (facultatif)'), 'Qualité = manager');
    await user.click(within(form).getByRole('checkbox', { name: 'Exiger l’authentification unique pour ces domaines' }));
    await user.click(within(form).getByRole('button', { name: 'Enregistrer' }));
    expect(await within(form).findByText(/^Enregistré\s: les adresses de ces domaines se connectent désormais/)).toBeInTheDocument();
    expect(within(form).getByLabelText('Secret du client')).toHaveValue('');
    await user.click(within(form).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(2));
    const [first, second] = calls.filter((call) => call.method === 'PUT').map((call) => call.body);
    expect(first).toEqual({ ...stored, clientSecret: 's3cret' });
    // Left blank, the secret is not sent: the server keeps the one it has.
    expect(second).toEqual(stored);
  });

  it('asks before removing a member, saying their sessions end at once', async () => {
    const user = userEvent.setup();
    answer = (call) => (call.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined);
    renderAs('admin');
    await user.click(await screen.findByRole('button', { name: 'Retirer lea@boutique.fr' }));
    const dialog = screen.getByRole('dialog', { name: 'Retirer lea@boutique.fr\u202F?' });
    expect(dialog).toHaveTextContent('Ses sessions en cours prennent fin immédiatement');
    await user.click(within(dialog).getByRole('button', { name: 'Retirer' }));
    expect(await screen.findByText('lea@boutique.fr ne fait plus partie de l’équipe.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'DELETE')?.url).toBe(`/api/members/${members[1]?.id}`);
  });

  it('resends and revokes an invitation', async () => {
    const user = userEvent.setup();
    answer = (call) =>
      call.url.endsWith('/resend')
        ? jsonResponse(200, { invitation: invitations[1] })
        : call.method === 'DELETE'
          ? new Response(null, { status: 204 })
          : undefined;
    renderAs('admin');
    await user.click(await screen.findByRole('button', { name: 'Renvoyer l’invitation de ancien@boutique.fr' }));
    expect(await screen.findByText('Invitation renvoyée à ancien@boutique.fr.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Révoquer l’invitation de nouveau@boutique.fr' }));
    expect(await screen.findByText(/Invitation de nouveau@boutique.fr révoquée/)).toBeInTheDocument();
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(
      expect.arrayContaining([`POST /api/invitations/${invitations[1]?.id}/resend`, `DELETE /api/invitations/${invitations[0]?.id}`]),
    );
  });

  it('creates an API key shown once with a copy button, and revokes one after asking', async () => {
    const user = userEvent.setup();
    const secret = `vk_${'x'.repeat(43)}`;
    answer = (call) =>
      call.url === '/api/api-keys' && call.method === 'POST'
        ? jsonResponse(201, {
            apiKey: {
              ...apiKeys[0],
              id: '6a5b0e7c-1fcd-4ed0-8142-5d6e7f8091a2',
              name: 'Entrepôt',
              role: 'manager',
              prefix: secret.slice(0, 11),
              key: secret,
            },
          })
        : call.method === 'DELETE'
          ? new Response(null, { status: 204 })
          : undefined;
    renderAs('admin');
    const listed = await screen.findByRole('list', { name: 'Clés d’API' });
    expect(within(listed).getByTestId('api-key')).toHaveTextContent('GTB du siège vk_Ab12Cd34…');
    expect(within(listed).getByTestId('api-key')).toHaveTextContent('Lecteur · Toute l’organisation');
    expect(within(listed).getByTestId('api-key')).toHaveTextContent('sans échéance · jamais utilisée');

    const form = screen.getByRole('form', { name: 'Créer une clé d’API' });
    await user.type(within(form).getByLabelText('Nom'), 'Entrepôt');
    await user.selectOptions(within(form).getByLabelText('Rôle'), 'manager');
    expect(within(form).getByLabelText('Rôle')).not.toHaveTextContent('Administrateur');
    await user.click(within(form).getByRole('button', { name: 'Créer la clé' }));
    const shown = await screen.findByTestId('new-api-key');
    expect(shown).toHaveTextContent('elle ne sera plus affichée');
    expect(within(shown).getByLabelText('Clé d’API Entrepôt')).toHaveValue(secret);
    expect(within(shown).getByRole('button', { name: 'Copier la clé' })).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'Entrepôt', role: 'manager', scope: null, expiresAt: null });

    await user.click(within(listed).getByRole('button', { name: 'Révoquer la clé GTB du siège' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Révoquer' }));
    expect(await screen.findByText(/Clé « GTB du siège » révoquée : elle ne fonctionne plus/)).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'DELETE')?.url).toBe(`/api/api-keys/${apiKeys[0]?.id}`);
  });

  it.each(['manager', 'viewer'] as const)('tells a %s that only admins manage the team, and offers no control', async (role) => {
    renderAs(role);
    expect(screen.getByText(/Seuls les administrateurs gèrent l’équipe/)).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Membres de l’équipe' });
    expect(within(list).getByText('Lecteur')).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retirer|Renvoyer|Révoquer|Envoyer/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Inviter un membre' })).not.toBeInTheDocument();
    expect(calls.map((call) => call.url)).not.toContain('/api/invitations');
    expect(calls.map((call) => call.url)).not.toContain('/api/api-keys');
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });
});
