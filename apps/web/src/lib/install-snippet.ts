import { endpoints } from '@vigie/contract/routes';

export type SnippetInput = {
  /** Where the app is served, e.g. https://vigie.boutique.fr. */
  origin: string;
  /** MQTT host: the host name the browser reached. */
  hostname: string;
  mqttPort: number | null;
  installationKey?: string;
  deviceId?: string;
  token?: string;
  kind?: 'sensor' | 'emitter';
};

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The commands and settings a technician pastes into a device: provision with the key, send a
 * reading over HTTP, then MQTT settings. Values not known yet stay as <placeholders>.
 */
export function buildInstallSnippet(input: SnippetInput): string {
  const deviceId = input.deviceId ?? '<identifiant-appareil>';
  const token = input.token ?? '<jeton-appareil>';
  const lines: string[] = [];
  if (input.installationKey) {
    const body = JSON.stringify({
      installationKey: input.installationKey,
      serial: 'SN-0001',
      kind: input.kind ?? 'sensor',
      name: 'Vitrine réfrigérée',
    });
    lines.push(
      '# 1. Installer l’appareil (la réponse donne deviceId et accessToken)',
      `curl -X POST ${input.origin}${endpoints.devices.provision.path} \\`,
      `  -H 'Content-Type: application/json' \\`,
      `  -d ${quote(body)}`,
      '',
    );
  }
  lines.push(
    `# ${input.installationKey ? '2' : '1'}. Envoyer une mesure en HTTP`,
    `curl -X POST ${input.origin}${endpoints.devices.telemetry.path} \\`,
    `  -H ${quote(`Authorization: Bearer ${token}`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"values": {"temperature": 4.2}}'`,
    '',
    `# ${input.installationKey ? '3' : '2'}. Ou en MQTT`,
  );
  if (input.mqttPort === null) {
    lines.push('# MQTT n’est pas activé sur ce serveur.');
  } else {
    lines.push(
      `hôte         : ${input.hostname}`,
      `port         : ${input.mqttPort}`,
      `sujet        : vigie/devices/${deviceId}/telemetry`,
      `utilisateur  : ${deviceId}`,
      `mot de passe : ${token}`,
      `client id    : ${deviceId}`,
      'QoS          : 1',
    );
  }
  return lines.join('\n');
}
