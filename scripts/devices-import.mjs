// `npm run devices:import -- FILE.csv`: a maker's batch of labelled devices (serial;kind;model;claimCode)
import './check-node.mjs';
import { ensureBuilt } from './ensure-built.mjs';

ensureBuilt({ web: false });
await import('../apps/server/dist/devices-import.js');
