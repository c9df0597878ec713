import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Group, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useId, useRef } from 'react';
import type { CouponPreview } from '../../../../../shared/api/coupons';
import type { Plan } from '../../../../../shared/api/plans';
import { CheckIcon } from '../../../components/brand/icons';
import { formatAmount } from '../../../lib/format-money';
import type { CouponField as CouponFieldState } from '../use-coupon';

/** "first month", "every year", or nothing for a plan paid once. */
export function couponPeriod(preview: Pick<CouponPreview, 'duration'>, plan: Pick<Plan, 'billing_interval'>) {
  const forever = preview.duration === 'forever';
  if (plan.billing_interval === 'month') return forever ? t`every month` : t`first month`;
  if (plan.billing_interval === 'year') return forever ? t`every year` : t`first year`;
  return '';
}

/** "₹999 → ₹799 first month": the price before and after the coupon, as one line of text. */
export function couponPriceText(preview: CouponPreview, plan: Pick<Plan, 'billing_interval'>): string {
  const period = couponPeriod(preview, plan);
  const before = formatAmount(preview.amount_minor, preview.currency);
  const after = formatAmount(preview.amount_after_minor, preview.currency);
  return `${before} → ${after}${period ? ` ${period}` : ''}`;
}

function AppliedLine({ preview, plan }: { preview: CouponPreview; plan: Plan }) {
  const period = couponPeriod(preview, plan);
  const code = preview.code;
  const planName = plan.name;
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" role="status" data-testid="coupon-applied">
      <Box c="teal" mt={2} style={{ flexShrink: 0 }}>
        <CheckIcon size={18} />
      </Box>
      <Text size="sm">
        <Trans>
          <strong>{code}</strong> on {planName}:
        </Trans>{' '}
        <Text span size="sm" td="line-through" c="dimmed">
          {formatAmount(preview.amount_minor, preview.currency)}
        </Text>{' '}
        → <strong>{formatAmount(preview.amount_after_minor, preview.currency)}</strong>
        {period ? ` ${period}` : ''}
        {preview.description ? (
          <Text span size="sm" c="dimmed">
            {' '}
            ({preview.description})
          </Text>
        ) : null}
      </Text>
    </Group>
  );
}

const forPlan = (planName: string) => t`For ${planName}.`;
const removeLabel = (code: string) => t`Remove coupon ${code}`;

/**
 * "I have a coupon": a code checked on one of the plans on sale, the price before and after it,
 * and the server's refusal beside the field. The plan's checkout then opens with the code.
 */
export function CouponField({ coupon, plans }: { coupon: CouponFieldState; plans: readonly Plan[] }) {
  const { t } = useLingui();
  const regionId = useId();
  const input = useRef<HTMLInputElement>(null);
  const { opened } = coupon;
  const wasOpened = useRef(opened);
  // Opening the field puts the keyboard in it; the first render (closed) moves nothing.
  useEffect(() => {
    if (opened && !wasOpened.current) input.current?.focus();
    wasOpened.current = opened;
  }, [opened]);

  const plan = plans.find((item) => item.id === coupon.planId) ?? plans[0];
  if (!plan) return null;
  const applied = coupon.applied && coupon.applied.planId === plan.id ? coupon.applied.preview : null;

  return (
    <Stack gap="xs" maw={560}>
      <div>
        <Button
          variant="subtle"
          size="compact-sm"
          px={4}
          aria-expanded={opened}
          aria-controls={regionId}
          onClick={() => coupon.setOpened(!opened)}
        >
          <Trans>I have a coupon</Trans>
        </Button>
      </div>
      {opened ? (
        <Paper withBorder radius="md" p="md">
          <Stack
            gap="sm"
            id={regionId}
            component="form"
            aria-label={t`Coupon`}
            onSubmit={(event) => {
              event.preventDefault();
              coupon.apply();
            }}
          >
            {plans.length > 1 ? (
              <NativeSelect
                size="md"
                label={t`Apply to`}
                data={plans.map((item) => ({ value: item.id, label: item.name }))}
                value={plan.id}
                onChange={(event) => coupon.choosePlan(event.currentTarget.value)}
              />
            ) : null}
            <TextInput
              ref={input}
              label={t`Coupon code`}
              description={plans.length > 1 ? undefined : forPlan(plan.name)}
              value={coupon.code}
              onChange={(event) => coupon.setCode(event.currentTarget.value)}
              error={coupon.error}
              maxLength={40}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              styles={{
                input: { textTransform: 'uppercase', fontFamily: 'var(--mantine-font-family-monospace)' },
              }}
              inputContainer={(field) => (
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Box style={{ flex: 1, minWidth: 0 }}>{field}</Box>
                  {applied ? (
                    <Button
                      type="button"
                      size="md"
                      variant="default"
                      aria-label={removeLabel(applied.code)}
                      onClick={() => {
                        coupon.remove();
                        // The button goes with the coupon: the keyboard stays in the field.
                        input.current?.focus();
                      }}
                    >
                      <Trans>Remove</Trans>
                    </Button>
                  ) : (
                    <Button type="submit" size="md" variant="light" loading={coupon.checking}>
                      <Trans>Apply</Trans>
                    </Button>
                  )}
                </Group>
              )}
            />
            {applied ? <AppliedLine preview={applied} plan={plan} /> : null}
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
}
