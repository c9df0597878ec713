import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadPasswordRule } from '../../../src/renderer/src/features/auth/password-strength';
import { FakeApi, problem, testUser } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';
import { makeOrganisation, makePreview, MEMBERS, ORG_ID } from './fixtures';

const TOKEN = 'inv_' + 'k'.repeat(40);
const LINK = `/invitations/accept#token=${TOKEN}`;

let api: FakeApi;

beforeAll(async () => {
  // The strength meter's rule (zxcvbn) loads on first use: once here, not inside a test's time.
  await loadPasswordRule();
}, 30_000);
beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /plans/public', () => ({ json: [] }));
  api.on('GET /organisations', () => ({ json: [makeOrganisation({ role: 'member' })] }));
  api.on(`GET /organisations/${ORG_ID}`, () => ({ json: makeOrganisation({ role: 'member' }) }));
  api.on(`GET /organisations/${ORG_ID}/members`, () => ({ json: MEMBERS }));
});
afterEach(() => api.close());

const body = (route: string, index = 0) => JSON.parse(api.calls(route)[index]?.body || 'null') as unknown;

async function open(visitor: 'anonymous' | 'user', path = LINK) {
  const services = await servicesFor(api, visitor);
  return renderApp(services, path);
}

describe('invitation link', () => {
  it('lets the invited account, signed in, join and land on the organisation', async () => {
    api.on('POST /invitations/preview', () => ({
      json: makePreview({ email: testUser.email.toUpperCase(), account_exists: true }),
    }));
    api.on('POST /invitations/accept', () => ({
      json: { organisation: makeOrganisation({ role: 'member' }), message: 'You joined Acme Studio' },
    }));
    const { router } = await open('user');
    expect((await screen.findByTestId('invitation-facts')).textContent).toMatch(
      /Ada invited ADA@EXAMPLE.COM to join Acme Studio as a member, with a seat. The link works until Dec 4, 2026./,
    );
    expect(body('POST /invitations/preview')).toEqual({ token: TOKEN });
    await userEvent.click(screen.getByRole('button', { name: 'Join Acme Studio' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organisations/${ORG_ID}`));
    expect(body('POST /invitations/accept')).toEqual({ token: TOKEN });
  });

  it('tells another signed-in account the invitation is not theirs and offers to sign out', async () => {
    api.on('POST /invitations/preview', () => ({ json: makePreview({ account_exists: true }) }));
    await open('user');
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain(`You are signed in as ${testUser.email}`);
    expect(notice.textContent).toContain('the invitation is for dan@example.com');
    expect(screen.queryByRole('button', { name: 'Join Acme Studio' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    // Signed out, the same page offers the invitee's way in.
    expect(await screen.findByRole('link', { name: 'Sign in to join' })).toBeTruthy();
    expect(api.calls('POST /auth/logout')).toHaveLength(1);
  });

  it('sends an invitee with an account to sign in, and back to the link afterwards', async () => {
    api.on('POST /invitations/preview', () => ({
      json: makePreview({ email: testUser.email, account_exists: true }),
    }));
    api.on('POST /auth/login', () => ({ json: api.signInAnswer() }));
    const { router } = await open('anonymous');
    await userEvent.click(await screen.findByRole('link', { name: 'Sign in to join' }));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), testUser.email);
    await userEvent.type(screen.getByLabelText(/^Password/), 'a-long-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/invitations/accept'));
    expect(router.state.location.hash).toBe(`#token=${TOKEN}`);
    expect(await screen.findByRole('button', { name: 'Join Acme Studio' })).toBeTruthy();
  });

  it('lets an invitee without an account create one, signs them in and opens the organisation', async () => {
    api.on('POST /invitations/preview', () => ({ json: makePreview() }));
    api.on('POST /invitations/sign-up', () => ({
      json: api.signInAnswer({ ...testUser, id: 'user-dan', email: 'dan@example.com', full_name: 'Dan' }),
    }));
    const { router, store } = await open('anonymous');
    const form = within(await screen.findByRole('form', { name: 'Create your account' }));
    expect(form.getByText('dan@example.com')).toBeTruthy();
    await userEvent.type(form.getByRole('textbox', { name: /Full name/ }), 'Dan');
    await userEvent.type(form.getByLabelText(/^Password/), 'correct horse battery staple');
    await userEvent.type(form.getByLabelText(/^Confirm password/), 'correct horse battery stapler');
    await userEvent.click(form.getByRole('button', { name: 'Create account and join Acme Studio' }));
    expect(await form.findByText('The passwords do not match')).toBeTruthy();
    expect(api.calls('POST /invitations/sign-up')).toHaveLength(0);
    await userEvent.clear(form.getByLabelText(/^Confirm password/));
    await userEvent.type(form.getByLabelText(/^Confirm password/), 'correct horse battery staple');
    await userEvent.click(form.getByRole('button', { name: 'Create account and join Acme Studio' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organisations/${ORG_ID}`));
    expect(body('POST /invitations/sign-up')).toEqual({
      token: TOKEN,
      password: 'correct horse battery staple',
      full_name: 'Dan',
    });
    expect(store.getState().auth).toMatchObject({
      isAuthenticated: true,
      user: { email: 'dan@example.com' },
    });
    await screen.findByRole('heading', { level: 1, name: 'Acme Studio' });
  });

  it('keeps a refused sign-up on the form with the server’s words', async () => {
    api.on('POST /invitations/preview', () => ({ json: makePreview() }));
    api.on('POST /invitations/sign-up', () =>
      problem(
        409,
        'An account already uses dan@example.com: sign in with it to accept the invitation.',
        'account_exists',
      ),
    );
    await open('anonymous');
    const form = within(await screen.findByRole('form', { name: 'Create your account' }));
    await userEvent.type(form.getByLabelText(/^Password/), 'correct horse battery staple');
    await userEvent.type(form.getByLabelText(/^Confirm password/), 'correct horse battery staple');
    await userEvent.click(form.getByRole('button', { name: 'Create account and join Acme Studio' }));
    expect((await form.findByRole('alert')).textContent).toContain('An account already uses dan@example.com');
  });

  it.each([
    ['expired', 410, 'This invitation expired on Dec 4, 2026', 'invitation_expired'],
    ['revoked', 410, 'This invitation was revoked', 'invitation_revoked'],
    ['used', 410, 'This invitation was already used', 'invitation_used'],
  ])('says clearly when the link is %s', async (_case, status, message, code) => {
    api.on('POST /invitations/preview', () => problem(status, message, code));
    await open('anonymous');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This invitation cannot be used' }),
    ).toBeTruthy();
    expect(screen.getByTestId('invitation-refusal').textContent).toBe(message);
  });

  it('says so when the link has lost its token', async () => {
    await open('anonymous', '/invitations/accept');
    expect(await screen.findByRole('heading', { level: 1, name: 'This link is incomplete' })).toBeTruthy();
    expect(api.calls('POST /invitations/preview')).toHaveLength(0);
  });
});
