/**
 * A backup or restore that cannot go on, said so an operator knows what to do (a wrong passphrase,
 * an archive cut short, a data folder that is not empty); the CLI prints the message alone.
 */
export class BackupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BackupError';
  }
}
