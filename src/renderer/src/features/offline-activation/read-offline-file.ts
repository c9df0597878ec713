import { t } from '@lingui/core/macro';
import { OFFLINE_FILE_MAX_BYTES } from '../../../../shared/offline-files';

/**
 * The JSON of a file the app wrote, read in the browser; a file too large or not JSON is refused
 * here with a message that says so, and everything else is for the server to judge.
 */
export async function readOfflineFile(file: File): Promise<{ json: unknown } | { problem: string }> {
  const name = file.name;
  if (file.size > OFFLINE_FILE_MAX_BYTES)
    return { problem: t`${name} is too large to be a file the app wrote (at most 16 KB).` };
  try {
    return { json: JSON.parse(await file.text()) as unknown };
  } catch {
    return { problem: t`${name} is not a file the app wrote: it is not JSON.` };
  }
}

/** Offers the JSON as a file download, named as the app expects it. */
export function downloadJson(fileName: string, value: unknown): void {
  downloadText(fileName, `${JSON.stringify(value, null, 2)}\n`);
}

/** Offers text as a file download (in the desktop app, a save dialog). */
export function downloadText(fileName: string, contents: string): void {
  const url = URL.createObjectURL(new Blob([contents], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The download has started from the link; the URL is not needed once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
