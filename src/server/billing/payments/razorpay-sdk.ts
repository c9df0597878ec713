import Razorpay from 'razorpay';

/** How long an order request to Razorpay may take before the buyer is told to try again. */
const RAZORPAY_TIMEOUT_MS = 15_000;

export interface RazorpaySettings {
  keyId: string;
  keySecret: string;
  webhookSecret: string | undefined;
  /** Another base URL for the Razorpay API (a local fake in tests); https://api.razorpay.com by default. */
  apiUrl?: string;
}

/** The SDK keeps its axios instance on `api.rq`; only its defaults are touched (base URL, timeout). */
interface SdkHttpClient {
  rq?: { defaults: { baseURL?: string; timeout?: number } };
}

/** The SDK's client with our timeout (and, in tests, a fake API's address). */
export function createSdkClient({ keyId, keySecret, apiUrl }: RazorpaySettings): Razorpay {
  const client = new Razorpay({ key_id: keyId, key_secret: keySecret });
  const http = (client.api as unknown as SdkHttpClient).rq;
  if (!http) throw new Error('The razorpay SDK no longer exposes api.rq; update razorpay-sdk.ts');
  http.defaults.timeout = RAZORPAY_TIMEOUT_MS;
  if (apiUrl) http.defaults.baseURL = apiUrl;
  return client;
}

/** What the SDK rejects with: `{ statusCode, error: { code, description } }`, or a network error. */
export function describeSdkError(error: unknown): string {
  if (error && typeof error === 'object' && 'statusCode' in error) {
    const { statusCode, error: body } = error as {
      statusCode: unknown;
      error?: { code?: unknown; description?: unknown };
    };
    return `HTTP ${String(statusCode)} ${String(body?.code ?? '')}: ${String(body?.description ?? '')}`;
  }
  return error instanceof Error ? error.message : String(error);
}
