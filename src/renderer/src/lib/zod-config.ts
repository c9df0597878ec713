import { z } from 'zod';

// zod compiles object parsers with `new Function` when it may, and finds out by trying once; under
// the portal's CSP (no 'unsafe-eval') that try is refused and reported as a CSP violation on every
// page load. Parsing without compiled parsers is fast enough for the portal's forms and answers.
// Imported first by main.tsx: zod decides per schema when the schema is built, at module load.
z.config({ jitless: true });
