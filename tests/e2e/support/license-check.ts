/** The desktop app's public API key, as the shell sends it. */
export const DESKTOP_API_KEY = 'dap-desktop-public';

/** The desktop app's license check over HTTP, as the shell makes it: the status code and the JSON answer. */
export async function licenseStatusCall(
  baseUrl: string,
  licenseKey: string,
  hardwareId: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const query = new URLSearchParams({ license_key: licenseKey, hardware_id: hardwareId });
  const response = await fetch(`${baseUrl}/api/v1/licensing/status?${query}`, {
    headers: { 'x-api-key': DESKTOP_API_KEY },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
