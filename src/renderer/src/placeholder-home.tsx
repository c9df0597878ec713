import { useEffect, useState } from 'react';
import { API_BASE_PATH, apiPaths } from '../../shared/routes';
import type { HealthResponse } from '../../shared/api/health';

/**
 * Stands in for the portal until the "Portal core" issue lands: it shows that the web build is
 * served by the API server and that the API answers.
 */
export function PlaceholderHome() {
  const [health, setHealth] = useState<HealthResponse | 'unreachable' | null>(null);

  useEffect(() => {
    fetch(`${API_BASE_PATH}${apiPaths.health}`)
      .then((response) => response.json())
      .then((body: HealthResponse) => setHealth(body))
      .catch(() => setHealth('unreachable'));
  }, []);

  return (
    <main className="placeholder">
      <h1>Desktop AI Assistant</h1>
      <p>The account and licensing portal is being set up. The API is available now.</p>
      <p role="status">
        {health === null && 'Checking the API…'}
        {health === 'unreachable' && 'The API is not reachable.'}
        {health !== null && health !== 'unreachable' && `API ${health.status}, version ${health.version}`}
      </p>
      <p>
        <a href="/api/docs">API reference</a>
      </p>
    </main>
  );
}
