// The baseline of the licensing benchmark: a bare Fastify server with one trivial JSON route, run
// as a child process with the same Node flags as the real server (`node --import tsx …`).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ ok: true, status: 'active' }));

process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
