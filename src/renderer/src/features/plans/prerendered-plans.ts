import { createContext, useContext } from 'react';
import type { Plan } from '../../../../shared/api/plans';
import { PRERENDERED_PLANS_ID } from '../../../../shared/prerendered-page';

/**
 * The plans a page was rendered with at build time (the landing page's), so the client's first
 * render is the very markup it hydrates; null where the page was not rendered ahead of time.
 */
export const PrerenderedPlansContext = createContext<Plan[] | null>(null);

export const usePrerenderedPlans = () => useContext(PrerenderedPlansContext);

/** The plans in this document's JSON, or null without it (or with JSON that is not a list). */
export function readPrerenderedPlans(document: Pick<Document, 'getElementById'>): Plan[] | null {
  const text = document.getElementById(PRERENDERED_PLANS_ID)?.textContent;
  if (!text) return null;
  try {
    const plans: unknown = JSON.parse(text);
    return Array.isArray(plans) ? (plans as Plan[]) : null;
  } catch {
    return null;
  }
}
