import { type BridgeChannel, bridgeChannels, bridgeContract, isBridgeChannel } from '../shared/bridge.js';
import type { BridgeHandlers } from './handlers.js';

export type BridgeRefusal = 'unknown_channel' | 'untrusted_sender' | 'invalid_arguments' | 'invalid_result';

/** Why main refused a bridge call; the renderer sees the message in the rejected promise. */
export class BridgeRequestError extends Error {
  constructor(
    readonly code: BridgeRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeRequestError';
  }
}

/** Runs one bridge call: a known channel, arguments that pass their schema, a result that passes its own. */
export type BridgeDispatch = (channel: unknown, args: readonly unknown[]) => Promise<unknown>;

const CHANNELS = Object.values(bridgeChannels) as BridgeChannel[];

/** Checks the handler table against the contract once, then validates every call both ways. */
export function createBridgeDispatcher(handlers: BridgeHandlers): BridgeDispatch {
  const provided = Object.keys(handlers);
  const missing = CHANNELS.filter((channel) => typeof handlers[channel] !== 'function');
  const unknown = provided.filter((channel) => !isBridgeChannel(channel));
  if (missing.length > 0 || unknown.length > 0)
    throw new Error(
      `The bridge handlers do not match the contract (missing: ${missing.join(', ') || 'none'}; unknown: ${unknown.join(', ') || 'none'})`,
    );

  return async (channel, args) => {
    if (!isBridgeChannel(channel))
      throw new BridgeRequestError(
        'unknown_channel',
        `Unknown bridge channel: ${String(channel).slice(0, 80)}`,
      );
    const contract = bridgeContract[channel];
    const parsed = contract.args.safeParse(args);
    if (!parsed.success)
      throw new BridgeRequestError(
        'invalid_arguments',
        `Invalid arguments for ${channel}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`,
      );
    const handler = handlers[channel] as (...values: unknown[]) => Promise<unknown>;
    const result = contract.result.safeParse(await handler(...(parsed.data as unknown[])));
    // A handler that breaks the contract is a bug in main: refuse rather than hand the renderer junk.
    if (!result.success)
      throw new BridgeRequestError(
        'invalid_result',
        `The desktop answered ${channel} with an invalid result`,
      );
    return result.data;
  };
}

/** The parts of Electron's WebFrameMain the sender check reads. */
export interface FrameLike {
  url: string;
  processId: number;
  routingId: number;
}

/** The parts of Electron's IpcMainInvokeEvent the sender check reads. */
export interface IpcInvokeEventLike {
  senderFrame: FrameLike | null;
  sender: { mainFrame: FrameLike };
}

// Electron may hand out two wrapper objects for one frame, so identity falls back to the frame's ids.
const isSameFrame = (a: FrameLike, b: FrameLike) =>
  a === b || (a.processId === b.processId && a.routingId === b.routingId);

/** The part of Electron's `ipcMain` the registration uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/**
 * Trusted senders: the top-level frame of a window (never an iframe) showing an app URL (never a
 * page the window was navigated to).
 */
export function createSenderCheck(isAppUrl: (url: string) => boolean) {
  return (event: IpcInvokeEventLike): boolean => {
    const frame = event.senderFrame;
    return frame !== null && isSameFrame(frame, event.sender.mainFrame) && isAppUrl(frame.url);
  };
}

export interface RegisterBridgeIpcOptions {
  ipcMain: IpcMainLike;
  dispatch: BridgeDispatch;
  isTrustedSender: (event: IpcInvokeEventLike) => boolean;
  log?: (message: string) => void;
}

/**
 * The one registration of every bridge channel: each call passes the sender check, then the
 * dispatcher's channel and schema checks. Channels outside the contract get no handler at all.
 * Returns a function that removes the handlers.
 */
export function registerBridgeIpc(options: RegisterBridgeIpcOptions): () => void {
  const log = options.log ?? (() => undefined);
  for (const channel of CHANNELS)
    options.ipcMain.handle(channel, async (event, ...args) => {
      if (!options.isTrustedSender(event)) {
        log(`Refused ${channel} from ${event.senderFrame?.url ?? 'a frame that is gone'}`);
        throw new BridgeRequestError(
          'untrusted_sender',
          `${channel} is only answered to the app's own window`,
        );
      }
      return options.dispatch(channel, args);
    });
  return () => {
    for (const channel of CHANNELS) options.ipcMain.removeHandler(channel);
  };
}
