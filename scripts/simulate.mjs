// `npm run simulate -- --shop "Boutique Lyon" --sensors 20 --rate 1`
import './check-node.mjs';
import { ensureBuilt } from './ensure-built.mjs';

ensureBuilt({ web: false });
await import('../apps/server/dist/simulate.js');
