import { type FormErrors, schemaResolver as mantineSchemaResolver } from '@mantine/form';
import { knownText } from '../../lib/i18n/portal-i18n';

/**
 * Mantine's `schemaResolver` (sync) for the portal's forms: the shared schemas say what is wrong in
 * English, as the server does, and the form shows it in the language chosen (`knownText`).
 */
export function schemaResolver(
  schema: Parameters<typeof mantineSchemaResolver>[0],
): (values: unknown) => FormErrors {
  const validate = mantineSchemaResolver(schema, { sync: true });
  return (values) => {
    const errors = validate(values);
    for (const [field, error] of Object.entries(errors))
      if (typeof error === 'string') errors[field] = knownText(error);
    return errors;
  };
}
