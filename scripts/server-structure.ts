/**
 * Counts what docs/architecture.md promises of the server's shape, from the code's own imports:
 * cycles between its parts, one part reading another's repository or tables, SQL written outside
 * a repository, writes into another context's tables, and the length of app.ts. `npm run
 * structure` prints them; with `--check` (part of `npm run lint`) it fails on a cycle between
 * contexts that is not one of today's known ones, a query outside a repository, or such a write.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ServerFile {
  /** Path from the server's root, with `/`: `billing/payments/service.ts`. */
  path: string;
  text: string;
}

export interface Structure {
  parts: string[];
  /** Each a list of parts that import one another round a circle (a strongly connected set). */
  cycles: string[][];
  /** `from -> to` where a file of one part imports another part's repository or tables. */
  foreignRepositoryImports: string[];
  /** Files that build queries but are not repositories. */
  queriesOutsideRepositories: string[];
  /** `file -> table (owner)` where a context writes a table another context owns, or nobody does. */
  foreignWrites: string[];
}

/**
 * Which context owns each table: only its files write it. Another context asks it through its
 * index.ts (licensing's `lockOrganisation`, identity's `lockAccount`), or hears its events.
 */
export const TABLE_OWNERS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      'users',
      'api_tokens',
      'data_exports',
      'auth_challenges',
      'email_tokens',
      'login_throttles',
      'passkeys',
      'recovery_codes',
      'refresh_token_families',
      'refresh_tokens',
      'sign_in_sources',
      'totp_authenticators',
    ].map((table) => [table, 'identity']),
  ),
  ...Object.fromEntries(
    ['coupons', 'coupon_redemptions', 'features', 'plans', 'plan_features', 'plan_prices'].map((table) => [
      table,
      'catalogue',
    ]),
  ),
  ...Object.fromEntries(
    [
      'activations',
      'floating_member_keys',
      'floating_peaks',
      'floating_seats',
      'licenses',
      'license_trials',
      'machine_trials',
      'offline_activations',
      'organisation_domains',
      'organisation_sso',
      'sso_sign_ins',
      'saml_assertions',
      'organisation_invitations',
      'organisation_members',
      'organisations',
      'scim_group_members',
      'scim_groups',
      'scim_tokens',
      'scim_users',
      'seat_keys',
      'usage_counters',
      'usage_events',
      'usage_daily',
      'usage_reservations',
      'usage_overage_charges',
      'usage_member_caps',
      'usage_member_counters',
      'machine_deactivations',
      'activation_component_changes',
      'usage_packs',
    ].map((table) => [table, 'licensing']),
  ),
  ...Object.fromEntries(
    [
      'billing_details',
      'document_counters',
      'invoices',
      'payment_webhook_events',
      'payments',
      'plan_change_quotes',
      'provider_plans',
      'refunds',
      'subscriptions',
      'usage_pack_orders',
    ].map((table) => [table, 'billing']),
  ),
  releases: 'distribution',
  release_installs: 'distribution',
  ...Object.fromEntries(
    ['webhook_attempts', 'webhook_deliveries', 'webhook_endpoints', 'webhook_events'].map((table) => [
      table,
      'integrations',
    ]),
  ),
  support_requests: 'support',
  ...Object.fromEntries(
    ['mail_outbox', 'scheduled_notices', 'scheduler_leases', 'security_events', 'settings'].map((table) => [
      table,
      'platform',
    ]),
  ),
};

const WRITE = /\.(?:updateTable|insertInto|deleteFrom|replaceInto|mergeInto)\(\s*['"]([a-z_]+)['"]/g;

/** The tables a context's file writes that another context owns (or no context does yet). */
function foreignWritesOf(file: ServerFile): string[] {
  const context = partOf(file.path);
  if (file.path === context || isDatabasePlumbing(file.path)) return [];
  return [...file.text.matchAll(WRITE)]
    .map((match) => match[1]!)
    .filter((table) => TABLE_OWNERS[table] !== context)
    .map(
      (table) => `${file.path} -> ${table} (${TABLE_OWNERS[table] ?? 'no owner: add it to TABLE_OWNERS'})`,
    );
}

/** The part a file belongs to: its context folder (`billing`), or the file itself at the top. */
export function partOf(path: string): string {
  const [first, second] = path.split('/');
  if (first === 'modules' && second) return `modules/${second}`;
  return first ?? path;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The server files a file imports, by their paths. */
export function importsOf(file: ServerFile): string[] {
  const targets: string[] = [];
  for (const match of file.text.matchAll(IMPORT)) {
    const target = join(dirname(file.path), match[1]!).replace(/\.js$/, '.ts');
    // An import leaving the server (shared/) is not part of its shape.
    if (!target.startsWith('..')) targets.push(target);
  }
  return targets;
}

/** The comment eslint.config.js's direction rule is silenced with, where an import predates it. */
export const DEBT = 'debt of the move into contexts';

const isRepository = (path: string) => /(^|[/-])repository\.ts$/.test(path);
/** A context's own tables; those still in the shared db/ folder belong to nobody yet. */
const isOwnedTables = (path: string) => /(^|\/)tables[^/]*\.ts$/.test(path) && !isDatabasePlumbing(path);
const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql`|\bsql\.raw\(/;
/** Schema changes and the database's own plumbing are not queries a repository should hold. */
const isDatabasePlumbing = (path: string) => path.startsWith('db/') || path.startsWith('platform/db/');

/** Strongly connected sets of more than one part (Tarjan's algorithm). */
function circles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const circle: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        circle.push(member);
      } while (member !== node);
      if (circle.length > 1) found.push(circle.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}

export function measure(files: ServerFile[]): Structure {
  const known = new Set(files.map((file) => file.path));
  const edges = new Map<string, Set<string>>();
  const foreign = new Set<string>();
  for (const file of files) {
    const from = partOf(file.path);
    if (!edges.has(from)) edges.set(from, new Set());
    for (const target of importsOf(file)) {
      if (!known.has(target)) continue;
      const to = partOf(target);
      if (to === from) continue;
      edges.get(from)!.add(to);
      if (isRepository(target) || isOwnedTables(target)) foreign.add(`${file.path} -> ${target}`);
    }
  }
  return {
    parts: [...edges.keys()].sort(),
    cycles: circles(edges),
    foreignRepositoryImports: [...foreign].sort(),
    queriesOutsideRepositories: files
      .filter((file) => !isRepository(file.path) && !isDatabasePlumbing(file.path) && QUERY.test(file.text))
      .map((file) => file.path)
      .sort(),
    foreignWrites: [...new Set(files.flatMap(foreignWritesOf))].sort(),
  };
}

/** Every TypeScript file under `root`, by its path from there. */
export function readServer(root: string): ServerFile[] {
  const files: ServerFile[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        files.push({ path: relative(root, path).split('\\').join('/'), text: readFileSync(path, 'utf8') });
      }
    }
  };
  walk(root);
  return files;
}

/**
 * Cycles between parts let through for now: none. The move into contexts started from one of seven
 * contexts, which the domain events and the context interfaces broke; any cycle now fails the check.
 */
export const KNOWN_CYCLES: readonly (readonly string[])[] = [];

/** Cycles that are not within one known cycle. */
export function newCycles(structure: Structure, known = KNOWN_CYCLES): string[][] {
  return structure.cycles.filter(
    (cycle) => !known.some((allowed) => cycle.every((part) => allowed.includes(part))),
  );
}

/** Writes into another context's tables let through for now: none. */
export const KNOWN_FOREIGN_WRITES: readonly string[] = [];

export const SERVER_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../src/server');

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const structure = measure(readServer(SERVER_ROOT));
  if (process.argv.includes('--check')) {
    const added = newCycles(structure);
    for (const cycle of added)
      console.error(`A new cycle between parts of the server: ${cycle.join(' -> ')}`);
    for (const file of structure.queriesOutsideRepositories)
      console.error(`A query outside a repository (move it into one): ${file}`);
    const writes = structure.foreignWrites.filter((write) => !KNOWN_FOREIGN_WRITES.includes(write));
    for (const write of writes)
      console.error(`A write into another context's table (ask the owner through its index.ts): ${write}`);
    const failed = added.length + structure.queriesOutsideRepositories.length + writes.length;
    process.exit(failed > 0 ? 1 : 0);
  }
  const appLines = readFileSync(join(SERVER_ROOT, 'app.ts'), 'utf8').split('\n').length - 1;
  const list = (items: string[]) => items.map((item) => `  ${item}`).join('\n');
  console.log(`Parts of the server: ${structure.parts.length}`);
  console.log(`Cycles between parts: ${structure.cycles.length}`);
  for (const cycle of structure.cycles) console.log(`  ${cycle.length} parts: ${cycle.join(', ')}`);
  console.log(`Imports of another part's repository or tables: ${structure.foreignRepositoryImports.length}`);
  if (process.argv.includes('--list')) console.log(list(structure.foreignRepositoryImports));
  console.log(`Files outside repositories that query: ${structure.queriesOutsideRepositories.length}`);
  if (process.argv.includes('--list')) console.log(list(structure.queriesOutsideRepositories));
  console.log(`Writes into another context's tables: ${structure.foreignWrites.length}`);
  if (process.argv.includes('--list')) console.log(list(structure.foreignWrites));
  const debts = readServer(SERVER_ROOT).reduce((count, file) => count + file.text.split(DEBT).length - 1, 0);
  console.log(`Imports that break the direction, let through as debts: ${debts}`);
  console.log(`Lines of app.ts: ${appLines}`);
}
