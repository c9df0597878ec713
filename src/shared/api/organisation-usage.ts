import { z } from 'zod';
import { featureUsageSchema } from './licenses.js';
import { memberUsageSchema } from './member-usage.js';

export const organisationUsageSchema = z
  .object({
    organisation_id: z.string(),
    license_id: z.string().nullable().describe('Null before the organization buys seats'),
    pool: z.array(featureUsageSchema).describe('The organization’s metered features: what all members used'),
    members: z.array(memberUsageSchema),
  })
  .meta({ id: 'OrganisationUsage' });
export type OrganisationUsage = z.infer<typeof organisationUsageSchema>;
