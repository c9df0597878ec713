import { isAxiosError } from 'axios';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiOperation, checkNoContractBreaks, takeContractBreaks } from './support/api-contract';
import { feature, featureStats, paged } from './support/api-answers';
import { FakeApi, problem } from './support/fake-api';
import { signedInTab } from './support/signed-in';

/*
 * The fake API answers the renderer tests in place of the real server; these tests show that it
 * cannot drift from it: every answer is checked against the server's own schemas and routes.
 */

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

/** What the portal's own client gets for `GET path`: the status and body, whether it failed or not. */
async function answerTo(path: string): Promise<{ status?: number; data: unknown }> {
  const { services } = await signedInTab(api);
  try {
    const response = await services.client.http.get(path);
    return { status: response.status, data: response.data };
  } catch (error) {
    if (!isAxiosError(error)) throw error;
    return { status: error.response?.status, data: error.response?.data };
  }
}

describe('fake API answers are checked against the real server', () => {
  it('an answer of the schema goes through unchanged', async () => {
    api.on('GET /admin/features/stats', () => ({ json: featureStats }));
    expect(await answerTo('/admin/features/stats')).toEqual({ status: 200, data: featureStats });
    expect(takeContractBreaks()).toEqual([]);
  });

  it('an answer that does not parse fails the request and the test, naming the route, status and field', async () => {
    // The drift this check was made for: `features` where the server sends `by_feature`.
    const { by_feature: features, ...rest } = featureStats;
    api.on('GET /admin/features/stats', () => ({ json: { ...rest, features } }));
    const answer = await answerTo('/admin/features/stats');
    expect(answer.status).toBe(500);
    expect(answer.data).toMatchObject({
      code: 'fake_answer_breaks_contract',
      message: expect.stringContaining('GET /admin/features/stats answered 200') as unknown,
    });
    const breaks = takeContractBreaks();
    expect(breaks).toHaveLength(1);
    expect(breaks[0]).toContain('not FeatureStats (GET /admin/features/stats)');
    expect(breaks[0]).toMatch(/expected array, received undefined\s+→ at by_feature/);
    // The setup's check after each test is what fails the test that gave such an answer.
    api.on('GET /admin/features/stats', () => ({ json: { ...rest, features } }));
    await answerTo('/admin/features/stats');
    expect(() => checkNoContractBreaks()).toThrow(/by_feature/);
  });

  it('fields the schema does not have are refused too: the real server never sends them', async () => {
    api.on('GET /admin/features/stats', () => ({ json: { ...featureStats, by_kind: { boolean: 1 } } }));
    expect((await answerTo('/admin/features/stats')).status).toBe(500);
    expect(takeContractBreaks()).toEqual([
      expect.stringContaining('which the real server never sends: by_kind'),
    ]);
  });

  it('a status the operation never answers with is refused', async () => {
    const { services } = await signedInTab(api);
    api.on('POST /admin/features', () => ({ json: feature('F1') }));
    await expect(
      services.client.http.post('/admin/features', { key: 'ai_chat', name: 'AI chat', kind: 'boolean' }),
    ).rejects.toMatchObject({ response: { status: 500 } });
    expect(takeContractBreaks()).toEqual([
      expect.stringContaining('POST /admin/features answered 200, a status'),
    ]);
  });

  it('an error answer must be the error body every route answers errors with', async () => {
    api.on('GET /admin/features', () => ({ status: 503, json: { error: 'down' } }));
    expect((await answerTo('/admin/features')).status).toBe(500);
    expect(takeContractBreaks()).toEqual([expect.stringContaining('not ApiError')]);
    api.on('GET /admin/features', () => problem(503, 'Down for maintenance'));
    expect(await answerTo('/admin/features')).toMatchObject({ status: 503 });
    expect(takeContractBreaks()).toEqual([]);
  });

  it('an answer marked off-contract, for a client that must survive it, is sent as is', async () => {
    api.on('GET /admin/features', () => ({
      status: 502,
      body: '<html>Bad gateway</html>',
      type: 'text/html',
      offContract: 'the error page of a proxy in front of the server',
    }));
    expect(await answerTo('/admin/features')).toEqual({ status: 502, data: '<html>Bad gateway</html>' });
    expect(takeContractBreaks()).toEqual([]);
  });

  it('a call the real server does not have is refused, answered by a route or not', async () => {
    expect(await answerTo('/admin/payments')).toMatchObject({ status: 500 });
    expect(takeContractBreaks()).toEqual([
      expect.stringContaining('the real server has no operation GET /admin/payments'),
    ]);
  });
});

describe('fake API routes are operations of the real server', () => {
  it('registering a route the API does not have fails at once', () => {
    expect(() => api.on('GET /admin/payments', () => ({ json: paged([]) }))).toThrow(
      'The fake API cannot answer GET /admin/payments: the real server has no such operation',
    );
    // The path exists, the method does not.
    expect(() => api.on('DELETE /licenses', () => ({ status: 204 }))).toThrow(/no such operation/);
  });

  it('a path is matched like the server’s router: a fixed segment wins over a parameter', () => {
    expect(apiOperation('GET', '/admin/features/stats')?.name).toBe('GET /admin/features/stats');
    expect(apiOperation('GET', '/admin/features/F1')?.name).toBe('GET /admin/features/:id');
    expect(apiOperation('GET', '/licenses/current-plan')?.name).toBe('GET /licenses/current-plan');
    expect(apiOperation('POST', '/licenses/L1/activations/A1/deactivate')).toBeUndefined();
  });
});
