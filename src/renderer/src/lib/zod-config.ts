// zod compiles object parsers with `new Function` when it may, and finds out by trying once; under
// the portal's CSP (no 'unsafe-eval') that try is refused and reported as a CSP violation on every
// page load. Parsing without compiled parsers is fast enough for the portal's forms and answers.
//
// zod takes its settings from `globalThis.__zod_globalConfig` when it first loads (the object its
// `config()` writes to, shared by every copy of zod on the page), and decides per schema when the
// schema is built. So this file, imported first by main.tsx and importing nothing, sets it before
// any zod module runs: calling `config()` instead would pull zod's core into every screen's first
// download (about 4 KB, past the /login budget). tests/e2e/runtime-settings.test.ts fails if a zod
// release stops reading it.
const zodSettings = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodSettings.__zod_globalConfig = { ...zodSettings.__zod_globalConfig, jitless: true };

export {};
