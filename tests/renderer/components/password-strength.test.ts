import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { openPortalPage, usePasswordPageApi } from './portal-page';

/**
 * The strength meter beside a new password gives the server's verdict before anyone submits:
 * the same inputs the server refuses (tests/server/identity/password-strength.test.ts) show as refused here.
 */
const EMAIL = 'jonathan.smith@example.com';

const fakeApi = usePasswordPageApi();

const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const rules = () => within(screen.getByRole('list', { name: 'Rules for a new password' }));
const ruleState = (text: RegExp) => rules().getByText(text).closest('li')?.dataset.state;

async function openRegisterWith(email: string, password: string) {
  await openPortalPage(fakeApi(), '/register');
  await screen.findByRole('heading', { name: 'Create your account' }, { timeout: 10_000 });
  await userEvent.type(field(/^E-mail/), email);
  await userEvent.type(field(/^Password/), password);
  await screen.findByText(/^Strength:/);
}

describe('password strength meter', () => {
  it.each([
    ['aaaaaaaa', 'Repeated characters like "aaa" are easy to guess.'],
    ['abcdefgh', 'Sequences like "abc" or "6543" are easy to guess.'],
    ['qwertyuiop', 'This is a very often used password.'],
    ['password', 'This is one of the most used passwords.'],
  ])('shows %s as refused: Weak, not hard to guess, with the reason', async (password, warning) => {
    await openRegisterWith(EMAIL, password);
    expect(screen.getByText(/^Strength:/).textContent).toBe('Strength: Weak');
    expect(ruleState(/^Hard to guess/)).toBe('unmet');
    expect(ruleState(/^Does not contain your e-mail address/)).toBe('met');
    expect(screen.getByText(warning, { exact: false })).toBeTruthy();
  });

  it.each(['jonathan.smith2024', 'JonathanSmith!!', 'violet JONATHAN.SMITH harbour'])(
    'shows %s as refused for jonathan.smith@…: Weak, and it contains the email',
    async (password) => {
      await openRegisterWith(EMAIL, password);
      expect(screen.getByText(/^Strength:/).textContent).toBe('Strength: Weak');
      expect(ruleState(/^Does not contain your e-mail address/)).toBe('unmet');
    },
  );

  it('shows a good passphrase as accepted: Strong, every rule met, no advice', async () => {
    await openRegisterWith(EMAIL, 'violet harbour lamp 42');
    expect(screen.getByText(/^Strength:/).textContent).toBe('Strength: Strong');
    expect(ruleState(/^Hard to guess/)).toBe('met');
    expect(ruleState(/^Does not contain your e-mail address/)).toBe('met');
    expect(ruleState(/^8 to 128 characters/)).toBe('met');
    expect(screen.queryByText(/Add a few more words/)).toBeNull();
  });
});
