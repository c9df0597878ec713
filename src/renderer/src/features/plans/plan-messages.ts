// The fallbacks of the plan calls, shown when the server gives no message.
export const planMessages = {
  fetchPlansFailed: 'Failed to fetch plans',
  fetchPlanFailed: 'Failed to fetch plan',
  savePlanFailed: 'Failed to save plan',
  deletePlanFailed: 'Failed to delete plan',
  publishPlanFailed: 'Failed to publish plan',
  fetchPlanStatsFailed: 'Failed to fetch plan statistics',
} as const;
