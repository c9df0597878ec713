import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../src/renderer/src/app/providers';
import { makeStore } from '../../../src/renderer/src/app/store';
import { BillingDetailsCard } from '../../../src/renderer/src/features/invoices/components/billing-details-card';
import { type ShownLanguage, showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import { tabServices } from '../support/services';

const SLOW = { timeout: 10_000 };

afterEach(async () => {
  await showLanguage('en');
});

async function renderInLanguage(language: ShownLanguage) {
  await showLanguage(language);
  const { services } = tabServices('http://127.0.0.1:9');
  render(
    <AppProviders store={makeStore({ services })}>
      <BillingDetailsCard details={null} />
    </AppProviders>,
  );
}

describe('the billing form’s Indian states', () => {
  const stateList = async () =>
    within(await screen.findByRole('combobox', { name: /^(Bundesstaat|राज्य)/ }, SLOW));

  it('are in Devanagari in Hindi, and keep the English value that is saved', async () => {
    await renderInLanguage('hi');
    const states = await stateList();
    const maharashtra = states.getByRole('option', { name: 'महाराष्ट्र (27)' }) as HTMLOptionElement;
    expect(maharashtra.value).toBe('Maharashtra');
    expect(states.getByRole('option', { name: 'तमिलनाडु (33)' })).toBeTruthy();
    expect(states.queryByRole('option', { name: 'Maharashtra (27)' })).toBeNull();
  });

  it('keep their English names in German', async () => {
    await renderInLanguage('de');
    const states = await stateList();
    expect(states.getByRole('option', { name: 'Maharashtra (27)' })).toBeTruthy();
  });
});
