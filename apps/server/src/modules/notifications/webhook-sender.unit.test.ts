import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, sendWebhook } from './webhook-sender.ts';

describe('webhook targets', () => {
  it('takes for public only global unicast addresses, whatever the spelling', () => {
    const publicOnes = [
      '8.8.8.8',
      '93.184.215.14',
      '2a00:1450:4007:80f::200e',
      '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
      // A public IPv4 address reached through NAT64 or 6to4 is as public as the address itself.
      '64:ff9b::5db8:d70e',
      '64:ff9b::93.184.215.14',
      '2002:5db8:d70e::1',
    ];
    expect(publicOnes.filter((address) => !isPublicAddress(address))).toEqual([]);
    const notPublic = [
      // IPv4-compatible IPv6 (deprecated): ::127.0.0.1 is loopback, ::8.8.8.8 is routed nowhere.
      '::7f00:1',
      '::127.0.0.1',
      '::a9fe:a9fe',
      '::8.8.8.8',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:10.0.0.1',
      '::ffff:0:127.0.0.1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::8.8.8.8',
      '2002:7f00:1::',
      '2002:c0a8:101::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001:db8::1',
      '100::1',
      '4000::1',
      'fd00::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
      '0.0.0.0',
      '0.1.2.3',
      '127.0.0.1',
      '127.255.255.254',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.10',
      '169.254.169.254',
      '100.64.0.1',
      '192.0.0.8',
      '198.18.0.1',
      '203.0.113.5',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      // Legacy spellings an address parser may read as loopback.
      '2130706433',
      '0x7f000001',
      '0x7f.1',
      '0177.0.0.1',
      '127.1',
      'localhost',
      '',
    ];
    expect(notPublic.filter((address) => isPublicAddress(address))).toEqual([]);
  });

  describe('when sending', () => {
    let server: http.Server;
    let port: number;
    let received = 0;

    beforeAll(async () => {
      server = http.createServer((request, response) => {
        received += 1;
        request.resume();
        response.writeHead(204).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '::', resolve));
      ({ port } = server.address() as AddressInfo);
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const send = (url: string, allowPrivate: boolean) =>
      sendWebhook({ url, secret: 'secret', body: { type: 'test' }, deliveryId: 'd1', allowPrivate, now: new Date() });

    it('checks again the address it connects to: a target that became private is refused', async () => {
      for (const host of ['[::127.0.0.1]', '[::ffff:127.0.0.1]', '127.0.0.1', '[::1]']) {
        await expect(send(`http://${host}:${port}/hook`, false), host).rejects.toThrow('Adresse refusée');
      }
      expect(received).toBe(0);
      await send(`http://127.0.0.1:${port}/hook`, true);
      expect(received).toBe(1);
    });
  });
});
