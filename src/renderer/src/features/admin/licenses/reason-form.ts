import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { AdminLicense } from '../../../../../shared/api/admin';
import { schemaResolver } from '../../../components/forms/schema-resolver';

/**
 * The form of an action on a license that asks the administrator why (revoke, reset the
 * deactivations): empty again, its failure cleared, whenever the dialog opens for another license.
 */
export function useLicenseReasonForm(
  license: AdminLicense | null,
  schema: z.ZodType<{ reason: string }, { reason: string }>,
) {
  const [failure, setFailure] = useState<string>();
  const form = useForm({
    initialValues: { reason: '' },
    validate: schemaResolver(schema),
  });
  const { reset } = form;
  useEffect(() => {
    reset();
    setFailure(undefined);
  }, [license, reset]);
  return { form, failure, setFailure };
}
