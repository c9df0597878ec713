import { beforeAll, expect, it } from 'vitest';
import { type SeededCustomer, seedAdminLists, seedCustomer, seedSubscription } from './support/seed.js';
import { ADMIN_SCREENS, checkScreens, DEVICES } from './support/signed-in-pages.js';
import { describePortal } from './support/portal.js';

/**
 * Issue 6, "Must show": every admin console screen photographed light and dark on a desktop and
 * a phone (test-results/screenshots/), with no horizontal scroll on the phone and no serious or
 * critical axe-core violation. Lists hold a few dozen seeded rows plus a real purchase and a
 * sandbox subscription.
 */
describePortal(
  'the admin screens: screenshots, phone width and axe-core',
  (portal) => {
    let customer: SeededCustomer;
    beforeAll(async () => {
      customer = await seedCustomer(portal.server, { fullName: 'Casey Customer' });
      await seedAdminLists(portal.server, 40);
      // A subscription, so the Subscriptions screen and the overview's figures show data.
      await seedSubscription(portal.server, customer, 'pro-yearly');
    });

    for (const device of DEVICES)
      it(`${ADMIN_SCREENS.map((screen) => screen.name).join(', ')} on a ${device.name}`, async () => {
        const { problems, screenshots } = await checkScreens(
          portal,
          device,
          portal.server.admin,
          ADMIN_SCREENS,
          {
            licenseId: customer.licenseId,
          },
        );
        expect(problems, problems.join('\n\n')).toEqual([]);
        expect(screenshots).toHaveLength(ADMIN_SCREENS.length * 2);
      });
  },
  { timeout: 120_000 },
);
