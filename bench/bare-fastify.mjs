// The baseline of `npm run bench:api`: a bare Fastify server answering GET /api/sensor with the
// bytes Vigie answered, as fast as the framework allows. Usage: node bench/bare-fastify.mjs PORT FILE
import fs from 'node:fs';
import Fastify from 'fastify';

const [port, file] = process.argv.slice(2);
const body = fs.readFileSync(file ?? '');
const app = Fastify({ logger: false });
app.get('/api/sensor', (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').send(body);
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.('ready');
