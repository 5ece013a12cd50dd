// The baseline of the MQTT fleet scenario of `npm run bench:ingest`: a bare Aedes broker that
// accepts every client and acknowledges every message, nothing else. Usage: node bench/bare-aedes.mjs PORT
import net from 'node:net';
import { Aedes } from 'aedes';

const [port] = process.argv.slice(2);
const broker = await Aedes.createBroker();
const server = net.createServer(broker.handle);
server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
