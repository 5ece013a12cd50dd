import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toast';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import LorawanRoute from './lorawan';

const site = { id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d', name: 'Magasin principal', timezone: 'Europe/Paris', openingHours: {} };
const integration = {
  id: '6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e',
  type: 'tts',
  name: 'TTS du magasin',
  url: 'https://vigie.example.fr/api/integrations/6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e/events',
  lastEventAt: null,
};
const codecs = [
  { id: 'milesight-em300-th', vendor: 'Milesight', model: 'EM300-TH', measures: ['temperature', 'humidity', 'battery'] },
  { id: 'network', vendor: 'Serveur de réseau', model: 'Décodage fait par le serveur de réseau', measures: [] },
];
const pending = {
  devEui: '24e124136b502217',
  integrationId: integration.id,
  firstSeenAt: new Date().toISOString(),
  lastSeenAt: new Date().toISOString(),
  uplinks: 3,
  brand: 'milesight-iot',
  model: 'em300-th',
  suggestedCodec: 'milesight-em300-th',
  fPort: 85,
  payloadHex: '01755c03673401046865',
};
const device = {
  devEui: 'a84041000181c2d3',
  sensorId: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
  codec: 'milesight-em300-th',
  lastUplinkAt: new Date().toISOString(),
  rssi: -87,
  snr: -2.5,
  gateway: 'b827ebfffe6c2a12',
  lastError: 'Trame EM300-TH trop courte.',
};

type Call = { url: string; method: string; body: unknown };
type CodecEntry = { id: string; vendor: string; model: string; measures: string[] };
let calls: Call[];
let pendingList: (typeof pending)[];
let codecList: CodecEntry[];
let integrationList: object[];
const pastedId = 'custom:9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';

beforeEach(() => {
  calls = [];
  pendingList = [pending];
  codecList = [...codecs];
  integrationList = [integration];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const call = { url, method: init?.method ?? 'GET', body: init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined };
    calls.push(call);
    if (url === '/api/integrations' && call.method === 'POST') {
      const body = call.body as { name: string; mqtt?: { server: string; username: string } };
      return jsonResponse(201, {
        integration: {
          ...integration,
          id: '0f1a2b3c-4d5e-4f6a-8b7c-8d9e0f1a2b3c',
          name: body.name,
          secret: 'vlw_secret-de-test-montre-une-fois',
          mqtt: body.mqtt ? { server: body.mqtt.server, username: body.mqtt.username, state: 'connecting', error: null } : null,
        },
      });
    }
    if (url === '/api/integrations') return jsonResponse(200, { integrations: integrationList });
    if (url === '/api/lorawan/codecs' && call.method === 'GET') return jsonResponse(200, { codecs: codecList });
    if (url === '/api/lorawan/codecs/test') {
      const { source } = call.body as { source: string };
      return jsonResponse(200, {
        result: source.includes('while')
          ? { ok: false, error: 'Le décodeur a dépassé 50 ms sur cette trame : il a été arrêté.' }
          : {
              ok: true,
              readings: [{ ts: null, values: { battery: 92, temperature: 30.8, humidity: 50.5 } }],
              warnings: ['Octet 0x05 inconnu'],
            },
      });
    }
    if (url === '/api/lorawan/codecs' && call.method === 'POST') {
      const { name } = call.body as { name: string };
      if (name === 'Refusé') return jsonResponse(400, { message: 'Décodeur refusé : Le décodeur a échoué : boom' });
      const saved = { id: pastedId, vendor: 'Décodeur de l’organisation', model: name, measures: ['battery', 'temperature', 'humidity'] };
      codecList = [...codecList, saved];
      return jsonResponse(201, { codec: saved });
    }
    if (url === `/api/lorawan/codecs/${pastedId.slice('custom:'.length)}` && call.method === 'DELETE') {
      return jsonResponse(409, {
        message: 'Des appareils lisent encore leurs trames avec ce décodeur : choisissez-leur-en un autre d’abord.',
      });
    }
    if (url === '/api/lorawan/pending') return jsonResponse(200, { devices: pendingList });
    if (url === '/api/lorawan/devices' && call.method === 'GET') return jsonResponse(200, { devices: [device] });
    if (url === '/api/lorawan/devices' && call.method === 'POST') {
      pendingList = [];
      return jsonResponse(201, { sensor: { id: '8d9e0f1a-2b3c-4d4e-9f5a-6b7c8d9e0f1a', name: 'EM300-TH 502217' } });
    }
    if (url === '/api/sites') return jsonResponse(200, { sites: [site] });
    if (url === '/api/sensor') return jsonResponse(200, { sensors: [{ id: device.sensorId, name: 'Chambre froide' }] });
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
      <LorawanRoute />
      <Toaster />
    </>,
    { auth: { ...auth, user: auth.user && { ...auth.user, role } } },
  );
}

// Testing Library reads every kind of space as one: the no-break spaces are checked in the browser test.
describe('LorawanRoute', () => {
  it('shows a viewer the integrations, the detected and the registered devices, with nothing to change', async () => {
    renderAs('viewer');
    expect(screen.getByRole('heading', { level: 1, name: 'Capteurs LoRaWAN' })).toBeInTheDocument();
    const integrations = await screen.findByRole('list', { name: 'Intégrations' });
    expect(within(integrations).getByTestId('integration')).toHaveTextContent('The Things Stack · Dernier message : Jamais');
    const detected = await screen.findByRole('list', { name: 'Nouveaux appareils détectés' });
    const line = within(detected).getByTestId('pending-device');
    expect(line).toHaveTextContent('24E1 2413 6B50 2217');
    expect(line).toHaveTextContent('Milesight EM300-TH');
    expect(line).toHaveTextContent(/Vu 3 fois, dernière trame (à l’instant|il y a)/);
    const registered = await screen.findByRole('list', { name: 'Appareils LoRaWAN' });
    expect(within(registered).getByTestId('lorawan-signal')).toHaveTextContent('RSSI \u221287 dBm · SNR \u22122,5 dB');
    expect(within(registered).getByText(/Dernière trame illisible/)).toHaveTextContent('Trame EM300-TH trop courte.');
    expect(await within(registered).findByRole('link', { name: 'Chambre froide' })).toHaveAttribute(
      'href',
      `/dashboard/capteurs/${device.sensorId}`,
    );
    expect(screen.queryByRole('button', { name: /Adopter|Écarter|Supprimer|Créer/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Nouvelle intégration' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Décodeurs collés' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Code du décodeur')).not.toBeInTheDocument();
  });

  it('connects to The Things Stack’s MQTT server with the application and its key, and shows how that connection goes', async () => {
    integrationList = [
      {
        ...integration,
        name: 'TTN Lyon',
        mqtt: {
          server: 'mqtts://eu1.cloud.thethings.network:8883',
          username: 'magasin-lyon@ttn',
          state: 'error',
          error: 'Identifiants refusés par le serveur MQTT : vérifiez le nom d’utilisateur (application@tenant) et la clé d’API.',
        },
      },
    ];
    renderAs('manager');
    const listed = within(await screen.findByRole('list', { name: 'Intégrations' })).getByTestId('integration-mqtt');
    expect(listed).toHaveTextContent('MQTT : mqtts://eu1.cloud.thethings.network:8883 (magasin-lyon@ttn) · erreur');
    expect(listed).toHaveTextContent('Identifiants refusés par le serveur MQTT');

    const user = userEvent.setup();
    const form = screen.getByRole('form', { name: 'Nouvelle intégration' });
    await user.click(within(form).getByRole('radio', { name: /MQTT \(Vigie se connecte/ }));
    await user.type(within(form).getByLabelText('Serveur MQTT'), 'mqtts://eu1.cloud.thethings.network:8883');
    await user.type(within(form).getByLabelText('Utilisateur (application@tenant)'), 'magasin-lyon@ttn');
    await user.type(within(form).getByLabelText('Clé d’API'), 'NNSXS.CLE');
    await user.type(within(form).getByLabelText('Nom'), 'TTN Lyon');
    await user.click(within(form).getByRole('button', { name: 'Créer l’intégration' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.url === '/api/integrations')).toBe(true));
    expect(calls.find((call) => call.method === 'POST' && call.url === '/api/integrations')?.body).toEqual({
      type: 'tts',
      name: 'TTN Lyon',
      mqtt: { server: 'mqtts://eu1.cloud.thethings.network:8883', username: 'magasin-lyon@ttn', password: 'NNSXS.CLE' },
    });
    expect(await screen.findByTestId('created-integration')).toHaveTextContent(
      'Vigie se connecte à mqtts://eu1.cloud.thethings.network:8883 en tant que magasin-lyon@ttn',
    );
    // The key typed is not kept in the form once sent.
    expect(within(form).getByLabelText('Clé d’API')).toHaveValue('');

    // ChirpStack calls Vigie: no MQTT choice.
    await user.selectOptions(within(form).getByLabelText('Serveur de réseau'), 'chirpstack');
    expect(within(form).queryByRole('radio')).not.toBeInTheDocument();
  });

  it('adopts a detected device in two clicks with the suggested codec, site and use', async () => {
    const user = userEvent.setup();
    renderAs('manager');
    const detected = await screen.findByRole('list', { name: 'Nouveaux appareils détectés' });
    await waitFor(() => expect(calls.some((call) => call.url === '/api/sites')).toBe(true));
    await user.click(within(detected).getByRole('button', { name: 'Adopter l’appareil 24E1 2413 6B50 2217' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adopter l’appareil 24E1\u00A02413\u00A06B50\u00A02217' });
    expect(within(dialog).getByLabelText('Décodeur')).toHaveValue('milesight-em300-th');
    expect(within(dialog).getByLabelText('Nom du capteur')).toHaveValue('EM300-TH 502217');
    await user.click(within(dialog).getByRole('button', { name: 'Ajouter le capteur' }));
    await waitFor(() =>
      expect(calls.find((call) => call.url === '/api/lorawan/devices' && call.method === 'POST')?.body).toEqual({
        devEui: '24e124136b502217',
        codec: 'milesight-em300-th',
        name: 'EM300-TH 502217',
        siteId: site.id,
        preset: 'chilled_very_perishable',
      }),
    );
    expect(
      await screen.findByText(
        'Capteur « EM300-TH 502217 » ajouté : sa trame reçue en attente est enregistrée, les suivantes le seront aussi.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Voir' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('pending-device')).not.toBeInTheDocument());
    expect(screen.getByText(/Aucun nouvel appareil détecté/)).toBeInTheDocument();
  });

  it('tries a pasted codec, saves it, offers it at adoption, and says why it cannot be deleted', async () => {
    const user = userEvent.setup();
    renderAs('admin');
    const tryForm = await screen.findByRole('form', { name: 'Essayer un décodeur' });
    expect(screen.getByText(/Pour un capteur sans décodeur intégré/)).toBeInTheDocument();

    // Nothing to try yet: the code's field says so and has the focus.
    await user.click(within(tryForm).getByRole('button', { name: 'Essayer' }));
    const code = within(tryForm).getByLabelText('Code du décodeur');
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription(/Collez le code du décodeur\./);

    await user.click(code);
    await user.paste('function decodeUplink(input) { return { data: {} }; }');
    await user.type(within(tryForm).getByLabelText('Trame d’essai (hexadécimal)'), '01755c03673401046865');
    await user.type(within(tryForm).getByLabelText('Port (fPort)'), '85');
    await user.click(within(tryForm).getByRole('button', { name: 'Essayer' }));
    const values = await within(tryForm).findByRole('table');
    expect(within(values).getByRole('row', { name: /Température/ })).toHaveTextContent('30,8 °C');
    expect(within(values).getByRole('row', { name: /Humidité/ })).toHaveTextContent('50,5 %');
    expect(within(values).getByRole('row', { name: /Batterie/ })).toHaveTextContent('92 %');
    expect(within(tryForm).getByText('Octet 0x05 inconnu')).toBeInTheDocument();
    expect(calls.find((call) => call.url === '/api/lorawan/codecs/test')?.body).toEqual({
      source: 'function decodeUplink(input) { return { data: {} }; }',
      payloadHex: '01755c03673401046865',
      fPort: 85,
    });

    // A refused save says why, in French.
    const saveForm = screen.getByRole('form', { name: 'Enregistrer le décodeur' });
    await user.type(within(saveForm).getByLabelText('Nom du décodeur'), 'Refusé');
    await user.click(within(saveForm).getByRole('button', { name: 'Enregistrer le décodeur' }));
    expect(await within(saveForm).findByRole('alert')).toHaveTextContent('Décodeur refusé : Le décodeur a échoué : boom');

    await user.clear(within(saveForm).getByLabelText('Nom du décodeur'));
    await user.type(within(saveForm).getByLabelText('Nom du décodeur'), 'EM300 maison');
    await user.click(within(saveForm).getByRole('button', { name: 'Enregistrer le décodeur' }));
    const list = await screen.findByRole('list', { name: 'Décodeurs de l’organisation' });
    expect(within(list).getByTestId('pasted-codec')).toHaveTextContent('EM300 maison');
    expect(within(list).getByTestId('pasted-codec')).toHaveTextContent('Mesures : Batterie, température, humidité');
    expect(within(tryForm).getByLabelText('Code du décodeur')).toHaveValue('');

    // The adoption dialog offers it.
    const detected = await screen.findByRole('list', { name: 'Nouveaux appareils détectés' });
    await user.click(within(detected).getByRole('button', { name: 'Adopter l’appareil 24E1 2413 6B50 2217' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adopter l’appareil 24E1\u00A02413\u00A06B50\u00A02217' });
    expect(within(dialog).getByRole('option', { name: 'EM300 maison (décodeur de l’organisation)' })).toHaveValue(pastedId);
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }));

    // Still used: the 409 is shown.
    await user.click(within(list).getByRole('button', { name: 'Supprimer le décodeur EM300 maison' }));
    const confirm = await screen.findByRole('dialog', { name: 'Supprimer le décodeur «\u202FEM300 maison\u202F»\u202F?' });
    await user.click(within(confirm).getByRole('button', { name: 'Supprimer' }));
    expect(await screen.findByText(/Des appareils lisent encore leurs trames avec ce décodeur/)).toBeInTheDocument();
    expect(within(list).getByTestId('pasted-codec')).toBeInTheDocument();
  });

  it('shows a codec that loops as stopped, and the form stays usable', async () => {
    const user = userEvent.setup();
    renderAs('manager');
    const tryForm = await screen.findByRole('form', { name: 'Essayer un décodeur' });
    await user.click(within(tryForm).getByLabelText('Code du décodeur'));
    await user.paste('function decodeUplink(input) { while (true) {} }');
    await user.type(within(tryForm).getByLabelText('Trame d’essai (hexadécimal)'), '01755c03673401046865');
    await user.click(within(tryForm).getByRole('button', { name: 'Essayer' }));
    expect(await within(tryForm).findByRole('alert')).toHaveTextContent('Le décodeur a dépassé 50 ms sur cette trame : il a été arrêté.');
    expect(calls.find((call) => call.url === '/api/lorawan/codecs/test')?.body).toEqual({
      source: 'function decodeUplink(input) { while (true) {} }',
      payloadHex: '01755c03673401046865',
    });
    // Editing the code puts the old result away.
    await user.type(within(tryForm).getByLabelText('Code du décodeur'), ' ');
    expect(within(tryForm).queryByRole('alert')).not.toBeInTheDocument();
    await user.type(within(tryForm).getByLabelText('Port (fPort)'), '300');
    await user.click(within(tryForm).getByRole('button', { name: 'Essayer' }));
    expect(within(tryForm).getByLabelText('Port (fPort)')).toHaveFocus();
    expect(within(tryForm).getByText('Le port LoRaWAN est un nombre de 1 à 223.')).toBeInTheDocument();
  });

  it('opens « Ajouter un capteur LoRaWAN » for the DevEUI of a label read by the installer', async () => {
    const user = userEvent.setup();
    const auth = fakeAuth();
    renderWithProviders(<LorawanRoute />, {
      auth: { ...auth, user: auth.user && { ...auth.user, role: 'manager' } },
      path: '/dashboard/lorawan',
      initialEntries: ['/dashboard/lorawan?devEui=a84041000181c2ff'],
    });
    const dialog = await screen.findByRole('dialog', { name: 'Ajouter un capteur LoRaWAN' });
    expect(within(dialog).getByLabelText('DevEUI')).toHaveValue('A840 4100 0181 C2FF');
    expect(within(dialog).getByLabelText('Nom du capteur')).toHaveValue('Capteur LoRaWAN 81C2FF');
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Milesight EM300-TH' })).toBeInTheDocument());
    expect(within(dialog).getByLabelText('Décodeur')).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Ajouter le capteur' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Choisissez le décodeur de ce modèle de capteur.');
    await user.selectOptions(within(dialog).getByLabelText('Décodeur'), 'milesight-em300-th');
    await waitFor(() => expect(calls.some((call) => call.url === '/api/sites')).toBe(true));
    await user.click(within(dialog).getByRole('button', { name: 'Ajouter le capteur' }));
    await waitFor(() =>
      expect(calls.find((call) => call.url === '/api/lorawan/devices' && call.method === 'POST')?.body).toMatchObject({
        devEui: 'A840 4100 0181 C2FF',
        codec: 'milesight-em300-th',
        name: 'Capteur LoRaWAN 81C2FF',
        preset: 'chilled_very_perishable',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Ajouter un capteur LoRaWAN' })).not.toBeInTheDocument());
  });
});
