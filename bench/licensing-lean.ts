// The license check behind a bare Fastify route: the check's own parts (`bench/check-parts.ts`, the
// server's read, kept answers and signing) with none of the portal's pipeline around them (no API
// key, rate limit, security headers, request id, metrics, validation or request scope). What a
// kept check costs over HTTP when nothing but the check runs, beside the bare routes of
// `bench/licensing-bare.ts` and the real server in `bench/licensing.ts`.
//
//   DATA_DIR=<seeded data> PORT=<port> node --import tsx bench/licensing-lean.ts
import Fastify from 'fastify';
import { createCheckParts, SERVER_KEPT_ANSWERS } from './check-parts.js';

const LEAN_STATUS_PATH = '/lean/status';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR must name the seeded data directory');
const parts = await createCheckParts(dataDir);
const checks = parts.checks(SERVER_KEPT_ANSWERS);

const app = Fastify({ logger: false });
app.get('/health', async () => ({ ok: true }));
app.get(LEAN_STATUS_PATH, async (request, reply) => {
  const { license_key, hardware_id } = request.query as Record<string, string | undefined>;
  if (!license_key || !hardware_id) return reply.code(400).send({ code: 'validation_failed' });
  return reply
    .type('application/json; charset=utf-8')
    .send(await checks.validate({ license_key, hardware_id }));
});

process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => parts.close())
    .then(() => process.exit(0));
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
