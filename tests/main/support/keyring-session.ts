import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const BINARIES = ['/usr/bin/dbus-daemon', '/usr/bin/gnome-keyring-daemon', '/usr/bin/dbus-send'];

/** Why the real keychain cannot run here (the suite then skips with this reason), or undefined. */
export const keyringMissingReason: string | undefined = (() => {
  const missing = BINARIES.filter((path) => !existsSync(path));
  return missing.length > 0
    ? `${missing.join(', ')} missing (apt-get install dbus-x11 gnome-keyring libsecret-1-dev)`
    : undefined;
})();

export interface KeyringSession {
  /** DBUS_SESSION_BUS_ADDRESS of the private session bus. */
  address: string;
  stop(): Promise<void>;
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid) return;
  const exited = waitForExit(child);
  child.kill('SIGTERM');
  await exited;
}

/** The first line a process prints on stdout (dbus-daemon prints its address once it listens). */
function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) resolve(buffer.slice(0, newline).trim());
    });
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready`)));
    child.once('error', reject);
  });
}

async function secretServiceIsUp(address: string): Promise<boolean> {
  const { stdout } = await run(
    'dbus-send',
    [
      '--session',
      '--print-reply',
      '--dest=org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus.NameHasOwner',
      'string:org.freedesktop.secrets',
    ],
    { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address } },
  );
  return stdout.includes('boolean true');
}

/**
 * A private D-Bus session bus and, unless `withKeyring` is false, gnome-keyring's Secret Service
 * on it with an unlocked login keyring in a throw-away home. Sets DBUS_SESSION_BUS_ADDRESS for
 * this process: call it before keytar first talks to the bus. `stop` ends both processes.
 */
export async function startKeyringSession({ withKeyring = true } = {}): Promise<KeyringSession> {
  const home = await mkdtemp(join(tmpdir(), 'keyring-session-'));
  const runtimeDir = join(home, 'run');
  await mkdir(runtimeDir, { mode: 0o700 });
  const previousAddress = process.env['DBUS_SESSION_BUS_ADDRESS'];
  let bus: ChildProcess | undefined;
  let keyring: ChildProcess | undefined;

  const stop = async () => {
    await stopChild(keyring);
    await stopChild(bus);
    if (previousAddress === undefined) delete process.env['DBUS_SESSION_BUS_ADDRESS'];
    else process.env['DBUS_SESSION_BUS_ADDRESS'] = previousAddress;
    await rm(home, { recursive: true, force: true });
  };

  try {
    bus = spawn(
      'dbus-daemon',
      ['--session', '--nofork', '--print-address=1', `--address=unix:path=${join(runtimeDir, 'bus')}`],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const address = await firstLine(bus, 'dbus-daemon');
    process.env['DBUS_SESSION_BUS_ADDRESS'] = address;

    if (withKeyring) {
      keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
        stdio: ['pipe', 'ignore', 'ignore'],
        env: {
          ...process.env,
          HOME: home,
          XDG_DATA_HOME: join(home, 'data'),
          XDG_CONFIG_HOME: join(home, 'config'),
          XDG_RUNTIME_DIR: runtimeDir,
          DBUS_SESSION_BUS_ADDRESS: address,
        },
      });
      // --unlock reads the login keyring's password from stdin (a new keyring gets this password).
      keyring.stdin?.end('test-keyring-password');
      let keyringExited = false;
      keyring.once('exit', () => {
        keyringExited = true;
      });
      const deadline = Date.now() + 20_000;
      while (!(await secretServiceIsUp(address))) {
        if (keyringExited) throw new Error('gnome-keyring-daemon exited before the Secret Service was up');
        if (Date.now() > deadline) throw new Error('the Secret Service did not appear on the session bus');
        await new Promise((done) => setTimeout(done, 50));
      }
    }
    return { address, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
