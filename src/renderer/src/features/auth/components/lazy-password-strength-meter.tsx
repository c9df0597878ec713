import { type ComponentProps, lazy, Suspense } from 'react';

// The meter (and the strength rule it loads) is for the few screens with a new-password field;
// through this wrapper the feature's index can offer it without putting it in the first download.
const Meter = /* @__PURE__ */ lazy(() =>
  import('./password-strength-meter').then((module) => ({ default: module.PasswordStrengthMeter })),
);

/** The new-password strength meter, loaded when first shown (nothing shows until it is). */
export function PasswordStrengthMeter(props: ComponentProps<typeof Meter>) {
  return (
    <Suspense fallback={null}>
      <Meter {...props} />
    </Suspense>
  );
}
