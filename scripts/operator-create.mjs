// `npm run operator:create -- --email E --password P [--name N]`
import './check-node.mjs';
import { ensureBuilt } from './ensure-built.mjs';

ensureBuilt({ web: false });
await import('../apps/server/dist/operator-create.js');
