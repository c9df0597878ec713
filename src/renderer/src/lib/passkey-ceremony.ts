import { t } from '@lingui/core/macro';
import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';

/**
 * The browser's half of a passkey ceremony (navigator.credentials through @simplewebauthn/browser),
 * with the browser's refusals put in words. Loaded only where a passkey is used: the sign-in
 * page's first download does not carry it.
 */

/** A ceremony the browser or the person stopped: said in words, not sent to the server. */
export class PasskeyCeremonyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PasskeyCeremonyError';
  }
}

function inWords(error: unknown): PasskeyCeremonyError {
  if (error instanceof WebAuthnError) {
    switch (error.code) {
      case 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED':
        return new PasskeyCeremonyError(t`This device already holds a passkey for your account.`, {
          cause: error,
        });
      case 'ERROR_INVALID_DOMAIN':
      case 'ERROR_INVALID_RP_ID':
        return new PasskeyCeremonyError(
          t`Passkeys do not work at this address. Open the portal at its usual address and try again.`,
          { cause: error },
        );
      default:
        break;
    }
  }
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError')
    return new PasskeyCeremonyError(
      t`The passkey request was canceled or timed out. Try again when you are ready.`,
      {
        cause: error,
      },
    );
  return new PasskeyCeremonyError(
    t`Your browser could not use a passkey. Try again, or use another device.`,
    {
      cause: error,
    },
  );
}

export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** Asks the browser to make a passkey; answers RegistrationResponseJSON. */
export async function createPasskey(options: Record<string, unknown>): Promise<unknown> {
  try {
    return await startRegistration({
      optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
    });
  } catch (error) {
    throw inWords(error);
  }
}

/** Asks the browser to sign the challenge with a passkey; answers AuthenticationResponseJSON. */
export async function signWithPasskey(options: Record<string, unknown>): Promise<unknown> {
  try {
    return await startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    });
  } catch (error) {
    throw inWords(error);
  }
}
