import { t } from '@lingui/core/macro';

/**
 * The fallbacks of the plan calls, shown when the server gives no message. Each is read when it is
 * shown (a getter), so it is in the language shown then.
 */
export const planMessages = {
  get fetchPlansFailed() {
    return t`Failed to fetch plans`;
  },
  get fetchPlanFailed() {
    return t`Failed to fetch plan`;
  },
  get savePlanFailed() {
    return t`Failed to save plan`;
  },
  get deletePlanFailed() {
    return t`Failed to delete plan`;
  },
  get publishPlanFailed() {
    return t`Failed to publish plan`;
  },
  get fetchPlanStatsFailed() {
    return t`Failed to fetch plan statistics`;
  },
};

/** An endpoint's `extraOptions`: its fallback, read when a call fails. */
export const planFallback = (name: keyof typeof planMessages) => ({
  get fallback() {
    return planMessages[name];
  },
});
