import { expect } from 'vitest';
import type { PlanRow } from '../../../src/server/platform/db/tables.js';
import type { TestServer } from '../../support/test-server.js';
import { member, planByCode } from './license-helpers.js';

/** The trial length the trial suites offer. */
export const TRIAL_DAYS = 14;

/**
 * The administrators offer a trial of a plan (Pro monthly, 14 days, unless told) through the
 * plan's own form (its PUT): the plan as it now is.
 */
export async function offerTrial(s: TestServer, code = 'pro-monthly', days = TRIAL_DAYS): Promise<PlanRow> {
  const admin = await member(s, 'admin');
  const plan = await planByCode(s, code);
  const response = await s.api({
    method: 'PUT',
    path: `/plans/${plan.id}`,
    token: admin.token,
    body: { trial_days: days },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json<{ trial_days: number }>().trial_days).toBe(days);
  return { ...plan, trial_days: days };
}
