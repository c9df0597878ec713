import { useState } from 'react';
import { failureMessage } from '../../lib/api-errors';
import { readOfflineFile } from './read-offline-file';

/**
 * One chosen file the app wrote, read and sent: the file, why it was not accepted (read here or
 * refused by the server, else `failed`), and the server's answer. Choosing again starts afresh.
 */
export function useOfflineFileUpload<Result>(send: (json: unknown) => Promise<Result>, failed: string) {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<Result | null>(null);

  async function choose(chosen: File | null) {
    setFile(chosen);
    setProblem(null);
    setResult(null);
    if (!chosen) return;
    const read = await readOfflineFile(chosen);
    if ('problem' in read) return setProblem(read.problem);
    try {
      setResult(await send(read.json));
    } catch (error) {
      setProblem(failureMessage(error, failed));
    }
  }

  return { file, problem, result, choose };
}
