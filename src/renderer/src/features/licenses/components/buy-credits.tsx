import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Modal, NativeSelect, NumberInput, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import { MAX_PACKS_PER_ORDER } from '../../../../../shared/api/licenses';
import type { PaymentOrder, VerifyPaymentRequest } from '../../../../../shared/api/payments';
import { PRODUCT_NAME } from '../../../../../shared/constants';
import { PlusIcon } from '../../../components/brand/icons';
import plate from '../../../components/layout/heading-plate.module.css';
import { failureMessage } from '../../../lib/api-errors';
import { CHECKOUT_THEME_COLOR } from '../../../lib/checkout-window';
import { formatMoney } from '../../../lib/format-money';
import {
  orderSubject,
  SandboxCheckoutModal,
  useCompleteSandboxCheckoutMutation,
  useVerifyPaymentMutation,
} from '../../payments';
import { formatNumber } from '../license-format';
import { isMetered } from '../license-format';
import {
  type LicenseRecord,
  useBuyCreditPacksMutation,
  useGetLicenseUsageQuery,
} from '../licenses-endpoints';
import { periodChartDays } from '../usage-overage';

type Sandbox = { order: PaymentOrder; busy: 'pay' | 'decline' | null; problem: string | null };

/**
 * "Buy credits": a dialog for the license's features that sell a credit pack (which feature, how
 * many packs, their price in the plan's currency), then the same checkout as a plan's: the sandbox
 * dialog, or Razorpay Checkout. Disabled, saying why, when none of them sells a pack.
 */
export function BuyCredits({ license }: { license?: LicenseRecord | undefined }) {
  const { t } = useLingui();
  const noteId = useId();
  // The same read as the license's cards (same days), for the plan's currency the packs are priced in.
  const days = Math.max(
    1,
    ...(license?.usage_info.features ?? []).filter(isMetered).map((item) => periodChartDays(item)),
  );
  const usage = useGetLicenseUsageQuery({ licenseId: license?.license_id ?? '', days }, { skip: !license });
  const currency = usage.data?.currency;
  const onSale = (license?.usage_info.features ?? []).filter((feature) => feature.pack);
  const [open, setOpen] = useState(false);
  const [featureId, setFeatureId] = useState<string>('');
  const [quantity, setQuantity] = useState<number | string>(1);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [sandbox, setSandbox] = useState<Sandbox | null>(null);
  const [buy, buying] = useBuyCreditPacksMutation();
  const [completeSandbox] = useCompleteSandboxCheckoutMutation();
  const [verifyPayment] = useVerifyPaymentMutation();

  const feature = onSale.find((item) => item.feature_id === featureId) ?? onSale[0];
  const count = typeof quantity === 'number' ? quantity : Number.parseInt(quantity, 10);
  const valid = Number.isInteger(count) && count >= 1 && count <= MAX_PACKS_PER_ORDER;
  const money = (minor: number) => formatMoney(minor, currency ?? 'INR');
  // The unit and the feature's name are the plan's own words (data); only the fallback is the portal's.
  const unit = feature?.unit ?? t`units`;
  const featureName = feature?.name ?? '';
  const packUnits = formatNumber(feature?.pack?.units ?? 0);
  const packPrice = money(feature?.pack?.price_minor ?? 0);
  const orderUnits = valid ? formatNumber(count * (feature?.pack?.units ?? 0)) : '';
  const orderPrice = valid ? money(count * (feature?.pack?.price_minor ?? 0)) : '';
  const maxPacks = MAX_PACKS_PER_ORDER;

  async function verify(answer: VerifyPaymentRequest) {
    await verifyPayment(answer).unwrap();
    setSandbox(null);
    setOpen(false);
    const name = feature?.name;
    setDone(
      name
        ? t`${name} credits added: they are drawn once the period’s allowance is used.`
        : t`Credit credits added: they are drawn once the period’s allowance is used.`,
    );
  }

  async function start() {
    if (!license || !feature || !valid) return;
    setProblem(null);
    try {
      const order = await buy({
        licenseId: license.license_id,
        feature: feature.key,
        quantity: count,
      }).unwrap();
      if (order.sandbox) {
        setSandbox({ order, busy: null, problem: null });
        return;
      }
      // Razorpay's script is only added to the page here, on a click to buy.
      const razorpay = await import('../../../lib/razorpay-checkout');
      razorpay.openRazorpayCheckout(
        await razorpay.loadRazorpayCheckout(),
        order,
        { productName: PRODUCT_NAME, themeColor: CHECKOUT_THEME_COLOR },
        {
          onPaid: (answer) =>
            void verify(answer).catch((error: unknown) =>
              setProblem(failureMessage(error, t`The payment could not be verified.`)),
            ),
          onFailed: (failure) => setProblem(failure.error?.description ?? t`The payment was declined.`),
          onDismissed: () => setProblem(t`Nothing was bought: the payment window was closed.`),
        },
      );
    } catch (error) {
      setProblem(failureMessage(error, t`Could not start the checkout for the credits`));
    }
  }

  async function answerSandbox(outcome: 'pay' | 'decline') {
    if (!sandbox) return;
    setSandbox({ ...sandbox, busy: outcome, problem: null });
    try {
      const result = await completeSandbox({ orderId: sandbox.order.order_id, outcome }).unwrap();
      if (result.outcome === 'declined')
        setSandbox({ ...sandbox, busy: null, problem: result.failure.error.description ?? t`Declined` });
      else await verify(result.checkout);
    } catch (error) {
      setSandbox({
        ...sandbox,
        busy: null,
        problem: failureMessage(error, t`The payment could not be verified.`),
      });
    }
  }

  return (
    // On the plate the page heading has: the dot grid would show between the small letters.
    <Stack gap={4} align="flex-start" maw={280} className={plate.plate}>
      <Button
        disabled={onSale.length === 0}
        leftSection={<PlusIcon size={18} />}
        aria-describedby={noteId}
        onClick={() => {
          setDone(null);
          setOpen(true);
        }}
      >
        <Trans>Buy credits</Trans>
      </Button>
      <Text id={noteId} size="xs" c="dimmed">
        {done ??
          (onSale.length === 0
            ? t`This plan sells no credit packs. Your allowance resets each period.`
            : t`Credit packs add units past the allowance until they expire.`)}
      </Text>
      <Modal
        closeButtonProps={{ 'aria-label': t`Close` }}
        opened={open && !sandbox}
        onClose={() => setOpen(false)}
        title={t`Buy credits`}
      >
        {feature ? (
          <Stack gap="md">
            {onSale.length > 1 ? (
              <NativeSelect
                label={t`Feature`}
                value={feature.feature_id}
                data={onSale.map((item) => ({ value: item.feature_id, label: item.name }))}
                onChange={(event) => setFeatureId(event.currentTarget.value)}
              />
            ) : null}
            <NumberInput
              label={t`Packs`}
              description={t`Each pack: ${packUnits} ${unit} of ${featureName} for ${packPrice}`}
              min={1}
              max={MAX_PACKS_PER_ORDER}
              allowDecimal={false}
              allowNegative={false}
              value={quantity}
              onChange={setQuantity}
              error={valid ? undefined : t`From 1 to ${maxPacks} packs`}
            />
            <Text size="sm" data-testid="packs-price">
              {valid ? t`${orderUnits} ${unit} for ${orderPrice} (plus tax where it applies)` : ' '}
            </Text>
            {problem ? (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            ) : null}
            <Button onClick={() => void start()} loading={buying.isLoading} disabled={!valid}>
              <Trans>Continue to payment</Trans>
            </Button>
          </Stack>
        ) : null}
      </Modal>
      <SandboxCheckoutModal
        subject={sandbox ? orderSubject(sandbox.order) : null}
        busy={sandbox?.busy ?? null}
        problem={sandbox?.problem ?? null}
        onPay={() => void answerSandbox('pay')}
        onDecline={() => void answerSandbox('decline')}
        onClose={() => setSandbox(null)}
      />
    </Stack>
  );
}
