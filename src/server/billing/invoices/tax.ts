/**
 * Tax in integer minor units (paise, cents). One rounding rule everywhere: the tax is the part of
 * an amount that is tax, rounded half up to the minor unit; the net is what is left. Because of
 * that, an invoice's net, tax and total always add up exactly, and splitting a gross amount that
 * was built as `net + tax(net)` gives that same net and tax back.
 */

const BASIS_POINTS = 10_000;

/** `numerator / denominator` rounded half up, for non-negative integers. */
function divideHalfUp(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator) || numerator < 0 || denominator <= 0)
    throw new RangeError(`cannot round ${numerator}/${denominator}`);
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new RangeError(`not an amount in minor units: ${amount}`);
}

function checkRate(rateBasisPoints: number): void {
  if (!Number.isInteger(rateBasisPoints) || rateBasisPoints < 0 || rateBasisPoints > BASIS_POINTS)
    throw new RangeError(`not a tax rate in basis points: ${rateBasisPoints}`);
}

/** Tax added on top of a net amount (prices exclusive of tax): `net × rate`, rounded half up. */
export function taxOnNet(netMinor: number, rateBasisPoints: number): number {
  checkAmount(netMinor);
  checkRate(rateBasisPoints);
  return divideHalfUp(netMinor * rateBasisPoints, BASIS_POINTS);
}

/**
 * What the buyer pays for a price: the price itself when it includes the tax, else price plus tax.
 * A zero-rated sale (an export, see tax-treatment.ts) pays no tax: the price without the tax it
 * includes, or the price itself when the tax would be added.
 */
export function chargeForPrice(
  priceMinor: number,
  tax: { rateBasisPoints: number; inclusive: boolean; zeroRated?: boolean | undefined },
): number {
  if (tax.zeroRated) return tax.inclusive ? splitGross(priceMinor, tax.rateBasisPoints).netMinor : priceMinor;
  return tax.inclusive ? priceMinor : priceMinor + taxOnNet(priceMinor, tax.rateBasisPoints);
}

export interface TaxSplit {
  netMinor: number;
  taxMinor: number;
  grossMinor: number;
}

/**
 * The tax contained in a gross amount: `gross × rate / (1 + rate)`, rounded half up, and the net
 * is the rest. For a gross made by {@link chargeForPrice} with prices exclusive of tax, this gives
 * back the price as the net and the tax that was added (the error of the first rounding, at most
 * half a unit, shrinks by the factor 1 + rate, so the second rounding undoes it).
 */
export function splitGross(grossMinor: number, rateBasisPoints: number): TaxSplit {
  checkAmount(grossMinor);
  checkRate(rateBasisPoints);
  const taxMinor = divideHalfUp(grossMinor * rateBasisPoints, BASIS_POINTS + rateBasisPoints);
  return { netMinor: grossMinor - taxMinor, taxMinor, grossMinor };
}

/**
 * The tax share of a refund of `refundedMinor` out of an invoice of `invoiceGrossMinor` that
 * carried `invoiceTaxMinor` of tax, given the gross and tax already credited by earlier refunds.
 * Computed on the running total (`tax × refunded so far / gross`, half up, less what was already
 * credited), so partial refunds that add up to the whole credit exactly the invoice's tax.
 */
export function refundTaxShare(input: {
  invoiceGrossMinor: number;
  invoiceTaxMinor: number;
  refundedBeforeMinor: number;
  taxCreditedBeforeMinor: number;
  refundMinor: number;
}): TaxSplit {
  const { invoiceGrossMinor, invoiceTaxMinor, refundedBeforeMinor, taxCreditedBeforeMinor, refundMinor } =
    input;
  for (const amount of [
    invoiceGrossMinor,
    invoiceTaxMinor,
    refundedBeforeMinor,
    taxCreditedBeforeMinor,
    refundMinor,
  ])
    checkAmount(amount);
  const refundedAfter = refundedBeforeMinor + refundMinor;
  if (refundedAfter > invoiceGrossMinor)
    throw new RangeError(`refunds of ${refundedAfter} exceed the invoice total of ${invoiceGrossMinor}`);
  const cumulativeTax =
    invoiceGrossMinor === 0 ? 0 : divideHalfUp(refundedAfter * invoiceTaxMinor, invoiceGrossMinor);
  const taxMinor = Math.max(0, Math.min(refundMinor, cumulativeTax - taxCreditedBeforeMinor));
  return { netMinor: refundMinor - taxMinor, taxMinor, grossMinor: refundMinor };
}

/** One kind of tax on an invoice: `CGST` at 900 basis points, say, and its amount. */
export interface TaxLine {
  name: string;
  rateBasisPoints: number;
  amountMinor: number;
}

/**
 * India's GST by place of supply. Within the seller's state the tax is shared half and half
 * between the centre (CGST) and the state (SGST; UTGST in a union territory without a
 * legislature); across states, and out of India, it is all integrated tax (IGST). The halves of
 * an odd amount differ by one minor unit (the central half takes it), so they add up to the tax.
 */
export function gstLines(
  taxMinor: number,
  rateBasisPoints: number,
  supply: { intraState: boolean; unionTerritoryTax: boolean },
): TaxLine[] {
  checkAmount(taxMinor);
  checkRate(rateBasisPoints);
  if (!supply.intraState) return [{ name: 'IGST', rateBasisPoints, amountMinor: taxMinor }];
  const central = divideHalfUp(taxMinor, 2);
  const centralRate = Math.ceil(rateBasisPoints / 2);
  return [
    { name: 'CGST', rateBasisPoints: centralRate, amountMinor: central },
    {
      name: supply.unionTerritoryTax ? 'UTGST' : 'SGST',
      rateBasisPoints: rateBasisPoints - centralRate,
      amountMinor: taxMinor - central,
    },
  ];
}

/**
 * `taxMinor` shared in proportion to `parts` (the tax kinds of an invoice, to credit a refund's
 * tax by kind): each share rounded half up, the last taking what is left, so the shares add up.
 */
export function shareTax(taxMinor: number, parts: readonly number[]): number[] {
  checkAmount(taxMinor);
  const whole = parts.reduce((sum, part) => sum + part, 0);
  let left = taxMinor;
  return parts.map((part, index) => {
    checkAmount(part);
    const share =
      index === parts.length - 1
        ? left
        : whole === 0
          ? 0
          : Math.min(left, divideHalfUp(taxMinor * part, whole));
    left -= share;
    return share;
  });
}
