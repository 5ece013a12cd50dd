// Makes sure Mosquitto and its dynamic-security plugin are present: the tests of the external
// broker mode start their own Mosquitto, with a generated configuration, on a free port.
import { existsSync } from 'node:fs';
import { ensureDebianPackage } from './lib/ensure-debian-package.mjs';

ensureDebianPackage({
  label: 'Mosquitto',
  tools: ['/usr/sbin/mosquitto', 'mosquitto_ctrl'],
  packages: ['mosquitto', 'mosquitto-clients'],
  why: 'Les tests du mode broker externe démarrent leur propre Mosquitto.',
});
const plugins = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib'].map(
  (dir) => `${dir}/mosquitto_dynamic_security.so`,
);
if (!plugins.some((plugin) => existsSync(plugin))) {
  console.error('Le greffon « dynamic-security » de Mosquitto (mosquitto_dynamic_security.so) est introuvable.');
  process.exit(1);
}
