/** A command line the CLI cannot run as given: it answers with the message and the usage text. */
export class UsageError extends Error {}
