// `npm run user:create -- --email E --password P [--name N] [--org O]`
import './check-node.mjs';
import { ensureBuilt } from './ensure-built.mjs';

ensureBuilt({ web: false });
await import('../apps/server/dist/user-create.js');
