import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The package version; src/server and dist/server both sit two levels below package.json. */
export const appVersion: string = (
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as {
    version: string;
  }
).version;
