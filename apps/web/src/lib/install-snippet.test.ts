import { describe, expect, it } from 'vitest';
import { buildInstallSnippet } from './install-snippet';

describe('buildInstallSnippet', () => {
  it('provisions with the key, then gives HTTP and MQTT settings with placeholders', () => {
    const text = buildInstallSnippet({ origin: 'https://vigie.test', hostname: 'vigie.test', mqttPort: 1883, installationKey: 'ik_abc' });
    expect(text).toContain('curl -X POST https://vigie.test/api/devices/provision');
    expect(text).toContain('"installationKey":"ik_abc"');
    expect(text).toContain('https://vigie.test/api/devices/telemetry');
    expect(text).toMatch(/hôte\s+: vigie\.test/);
    expect(text).toMatch(/port\s+: 1883/);
    expect(text).toContain('vigie/devices/<identifiant-appareil>/telemetry');
  });

  it('fills in a device id and its new token', () => {
    const text = buildInstallSnippet({ origin: 'http://h', hostname: 'h', mqttPort: 2883, deviceId: 'd-1', token: "t'k" });
    expect(text).not.toContain('provision');
    expect(text).toContain(`'Authorization: Bearer t'\\''k'`);
    expect(text).toContain('vigie/devices/d-1/telemetry');
    expect(text).toMatch(/utilisateur\s+: d-1/);
    expect(text).toMatch(/mot de passe : t'k/);
  });

  it('says when MQTT is off', () => {
    expect(buildInstallSnippet({ origin: 'http://h', hostname: 'h', mqttPort: null })).toContain('MQTT n’est pas activé');
  });
});
