import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DESKTOP_APP_MESSAGES } from '../../../src/renderer/src/lib/i18n/desktop-app-messages';
import { DESKTOP_LICENSE_MESSAGES } from '../../../src/renderer/src/lib/i18n/desktop-license-messages';
import { knownText, showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import { offlineValidMessage } from '../../../src/shared/bridge';

/*
 * The desktop shell's main process speaks English (tests/main check its words); the portal shows
 * what it says in the language chosen. These check that the portal's copy of that English is
 * main's own, and that each message main builds reads in German with its values put in.
 */

const root = join(__dirname, '..', '..', '..');
/** Main's sources and the lease's, where every fixed message the portal knows is written. */
const mainSources = [
  ...readdirSync(join(root, 'src/main'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => readFileSync(join(root, 'src/main', name), 'utf8')),
  readFileSync(join(root, 'src/shared/lease.ts'), 'utf8'),
].join('\n');

const fixed = [...DESKTOP_LICENSE_MESSAGES, ...DESKTOP_APP_MESSAGES].map(([english]) => english);

/** Fixed messages main composes from parts (each part is in `templates` or shared code). */
const composed = new Set([
  offlineValidMessage(120),
  'The update could not be checked or downloaded. It will be tried again later.',
]);

/** The parts main writes around its values, each as it is in main's source. */
const templates = [
  "Offline use needs the license server's signing keys built into this app, and this build has none; connect to the internet to check the license.",
  'and this machine has no offline license yet. Connect to the internet to check the license.',
  'Connect to the internet to start the free trial.',
  'Activated by license file, valid offline for',
  'This machine borrowed a seat until',
  'floating seats (${answer.in_use} in use).',
  'Offline on a borrowed seat until',
  'The app needs the license server to take a floating seat.',
  'the license server could not be reached (${cause.code})',
  'the license server answered ${response.status}',
  'Could not start the sign-in: ${answer.reason}.',
  'Could not check for updates: ${outcome.reason}. It will be tried again later.',
  'The update server refused the check (${response.status})',
  'The update could not be checked or downloaded${firstLine',
  ": ''}. It will be tried again later.",
  'the update server could not be reached (${cause.code})',
  'the update server answered ${response.status}',
];

/** Messages main builds around a value, as a customer meets them. */
const built = [
  offlineValidMessage(6 * 86_400 + 60),
  offlineValidMessage(86_400),
  offlineValidMessage(5 * 3600),
  offlineValidMessage(3600),
  offlineValidMessage(120),
  "Offline: the license server did not answer in time. Offline use needs the license server's signing keys built into this app, and this build has none; connect to the internet to check the license.",
  'Offline: the license server could not be reached (ECONNREFUSED), and this machine has no offline license yet. Connect to the internet to check the license.',
  'Offline: the license server answered 503. Connect to the internet to start the free trial.',
  'Activated by license file, valid offline for 12 more days.',
  'This machine borrowed a seat until 2026-12-08T12:00:00.000Z: it runs offline until then.',
  'This machine holds one of 2 floating seats (1 in use).',
  'Offline on a borrowed seat until 2026-12-08T12:00:00.000Z.',
  'Offline: the license server could not be reached. The app needs the license server to take a floating seat.',
  'Could not start the sign-in: the license server could not be reached.',
  'Could not check for updates: the update server could not be reached (ENOTFOUND). It will be tried again later.',
  'Could not check for updates: the update server answered 502. It will be tried again later.',
  'The update server refused the check (409)',
  'The update could not be checked or downloaded: net::ERR_INTERNET_DISCONNECTED. It will be tried again later.',
];

describe('main’s English the portal knows', () => {
  it('is main’s own, word for word', () => {
    expect(fixed).toEqual(expect.arrayContaining([...composed]));
    const written = fixed.filter((text) => !composed.has(text));
    const missing = [...written, ...templates].filter((text) => !mainSources.includes(text));
    expect(missing).toEqual([]);
  });

  it('shows as main wrote it in English', () => {
    for (const text of [...fixed, ...built]) expect(knownText(text)).toBe(text);
  });
});

describe('main’s English in German', () => {
  beforeEach(async () => {
    await showLanguage('de');
  });
  afterEach(async () => {
    await showLanguage('en');
  });

  it('translates every message main says to the portal', () => {
    const untranslated = [...fixed, ...built].filter((text) => knownText(text) === text);
    expect(untranslated).toEqual([]);
  });

  it('puts the values into the German: days left, reasons, seats and dates', () => {
    expect(knownText(offlineValidMessage(6 * 86_400 + 60))).toBe(
      'Offline – Lizenz anhand der signierten Lease geprüft; noch 6 Tage übrig',
    );
    expect(knownText(offlineValidMessage(3600))).toBe(
      'Offline – Lizenz anhand der signierten Lease geprüft; noch 1 Stunde übrig',
    );
    expect(knownText(built[6] ?? '')).toBe(
      'Offline: der Lizenzserver war nicht erreichbar (ECONNREFUSED), und dieses Gerät hat noch keine Offline-Lizenz. Verbinden Sie sich mit dem Internet, um die Lizenz zu prüfen.',
    );
    expect(knownText('This machine holds one of 2 floating seats (1 in use).')).toBe(
      'Dieses Gerät belegt einen von 2 Floating-Plätzen (1 belegt).',
    );
    expect(knownText('This machine holds one of 1 floating seats (1 in use).')).toBe(
      'Dieses Gerät belegt den einzigen Floating-Platz (1 belegt).',
    );
    expect(knownText('Offline on a borrowed seat until 2026-12-08T12:00:00.000Z.')).toMatch(
      /^Offline auf einem ausgeliehenen Platz bis 08\.12\.2026, \d\d:00\.$/,
    );
    expect(knownText('Could not start the sign-in: the license server answered 503.')).toBe(
      'Die Anmeldung konnte nicht gestartet werden: der Lizenzserver antwortete mit Status 503.',
    );
  });

  it('leaves a reason it does not know as main wrote it, inside the German', () => {
    expect(
      knownText('Offline: the network cable is loose. Connect to the internet to start the free trial.'),
    ).toBe(
      'Offline: the network cable is loose. Verbinden Sie sich mit dem Internet, um die kostenlose Testphase zu starten.',
    );
  });
});
