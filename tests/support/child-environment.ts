import { configVariableNames } from '../../src/server/platform/config.js';

/**
 * The environment for a child server or CLI process: this process's, without any setting the
 * server reads (so the developer's own PORT or DATABASE_URL cannot leak in), plus `overrides`.
 */
export function childEnvironment(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of configVariableNames) delete environment[name];
  return { ...environment, ...overrides };
}
