// The baseline of the licensing benchmark: a bare Fastify server with one trivial JSON route (and
// one answering a check's size and headers), run as a child process with the same Node flags as the
// real server (`node --import tsx …`).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ ok: true, status: 'active' }));

// The same, but answering as many bytes with the same headers as the real check does (given by
// the benchmark from one real answer): what HTTP alone costs for an answer of that size.
const sizedBody = Buffer.from(
  JSON.stringify({
    ok: true,
    padding: 'x'.repeat(Math.max(0, Number(process.env.BARE_SIZED_BYTES ?? 0) - 27)),
  }),
);
const sizedHeaders = JSON.parse(process.env.BARE_SIZED_HEADERS ?? '{}') as Record<string, string>;
app.get('/bare-sized', (_request, reply) => {
  void reply.headers(sizedHeaders).type('application/json; charset=utf-8').send(sizedBody);
});

process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
