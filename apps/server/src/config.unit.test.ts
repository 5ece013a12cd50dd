import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration of the external MQTT broker', () => {
  it('is off by default: the embedded broker holds the devices', () => {
    expect(loadConfig({}).mqttBroker).toBeNull();
  });

  it('reads the broker account, a stable client id per instance and the port told to devices', () => {
    const config = loadConfig({ MQTT_BROKER_URL: 'mqtt://vigie:s%C3%A9cret@broker.local:8883', PORT: '3100' });
    expect(config.mqttBroker).toMatchObject({ url: 'mqtt://vigie:s%C3%A9cret@broker.local:8883', consumers: 32, publicPort: 8883 });
    expect(config.mqttBroker?.clientId).toMatch(/^vigie-.*-3100$/);
    expect(loadConfig({ MQTT_BROKER_URL: 'mqtt://vigie:x@broker.local', MQTT_BROKER_PUBLIC_PORT: '1884' }).mqttBroker?.publicPort).toBe(
      1884,
    );
    expect(loadConfig({ MQTT_BROKER_URL: 'mqtt://vigie:x@broker.local' }).mqttBroker?.publicPort).toBe(1883);
  });

  it('refuses a broker address without an account, in French', () => {
    expect(() => loadConfig({ MQTT_BROKER_URL: 'mqtt://broker.local:1883' })).toThrow(ConfigError);
    expect(() => loadConfig({ MQTT_BROKER_URL: 'http://vigie:x@broker.local' })).toThrow(
      /une adresse mqtt:\/\/utilisateur:motdepasse@hôte:port est attendue/,
    );
    expect(() => loadConfig({ MQTT_BROKER_URL: 'mqtt://vigie:x@b', MQTT_BROKER_CLIENT_ID: 'pas d’espace' })).toThrow(
      /MQTT_BROKER_CLIENT_ID/,
    );
  });
});

describe('configuration of the key of two-factor secrets', () => {
  it('is optional (a key is derived from the signing secret), and refused under 32 characters in French', () => {
    expect(loadConfig({}).totpKey).toBeUndefined();
    expect(loadConfig({ TOTP_KEY: 'k'.repeat(32) }).totpKey).toBe('k'.repeat(32));
    expect(() => loadConfig({ TOTP_KEY: 'trop courte' })).toThrow(/TOTP_KEY : la clé doit contenir au moins 32 caractères/);
    expect(loadConfig({}).totpPreviousKeys).toEqual([]);
    expect(loadConfig({ TOTP_PREVIOUS_KEYS: ` ${'a'.repeat(32)}, ${'b'.repeat(40)} ` }).totpPreviousKeys).toEqual([
      'a'.repeat(32),
      'b'.repeat(40),
    ]);
    expect(() => loadConfig({ TOTP_PREVIOUS_KEYS: `${'a'.repeat(32)},courte` })).toThrow(
      /chaque ancienne clé doit contenir au moins 32 caractères/,
    );
  });
});

describe('configuration of the reverse proxies (TRUST_PROXY)', () => {
  it('reads none, a number of proxies (true is one) or their addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.1, fd00::/8,loopback ' }).trustProxy).toEqual(['10.0.0.1', 'fd00::/8', 'loopback']);
  });

  it('refuses anything else in French', () => {
    for (const value of ['proxy', '10.0.0.0/33', '10.0.0.300', '127.0.0.1, =cmd', '100']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY : true \(un proxy\), le nombre de proxys/);
    }
  });
});
