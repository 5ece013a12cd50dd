// Makes sure nginx and its stream module are present: `npm run topology` puts it in front of two
// Vigie instances (HTTP) and of the MQTT broker (TCP).
import { existsSync } from 'node:fs';
import { ensureDebianPackage } from './lib/ensure-debian-package.mjs';

export const NGINX_STREAM_MODULE = '/usr/lib/nginx/modules/ngx_stream_module.so';

ensureDebianPackage({
  label: 'nginx',
  tools: ['/usr/sbin/nginx', NGINX_STREAM_MODULE],
  packages: ['nginx', 'libnginx-mod-stream'],
  why: 'npm run topology répartit la charge entre deux instances de Vigie avec nginx.',
});
if (!existsSync(NGINX_STREAM_MODULE)) process.exit(1);
