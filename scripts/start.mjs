// `npm start`: builds what is missing, then runs the server in this process.
import './check-node.mjs';
import { ensureBuilt } from './ensure-built.mjs';

ensureBuilt();
await import('../apps/server/dist/main.js');
