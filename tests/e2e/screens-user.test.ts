import { beforeAll, expect, it } from 'vitest';
import { type SeededCustomer, seedCustomer, seedSubscription } from './support/seed.js';
import { checkScreens, DEVICES, USER_SCREENS } from './support/signed-in-pages.js';
import { describePortal } from './support/portal.js';

/**
 * Issue 6, "Must show": every user screen photographed light and dark on a desktop and a phone
 * (test-results/screenshots/), with no horizontal scroll on the phone and no serious or critical
 * axe-core violation. The customer owns a paid license with an activation, usage and a payment,
 * and a sandbox subscription to Pro yearly, so the screens show data rather than their empty states.
 */
describePortal(
  'the user screens: screenshots, phone width and axe-core',
  (portal) => {
    let customer: SeededCustomer;
    beforeAll(async () => {
      customer = await seedCustomer(portal.server, { fullName: 'Casey Customer' });
      await seedSubscription(portal.server, customer, 'pro-yearly');
    });

    for (const device of DEVICES)
      it(`${USER_SCREENS.map((screen) => screen.name).join(', ')} on a ${device.name}`, async () => {
        const { problems, screenshots } = await checkScreens(portal, device, customer, USER_SCREENS, {
          licenseId: customer.licenseId,
        });
        expect(problems, problems.join('\n\n')).toEqual([]);
        expect(screenshots).toHaveLength(USER_SCREENS.length * 2);
      });
  },
  { timeout: 120_000 },
);
