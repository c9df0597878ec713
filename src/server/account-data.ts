import { billingDataOfUser } from './billing/index.js';
import { type AccountDataParts, jsonFile } from './identity/index.js';
import { licensingDataOfUser, ownedOrganisations } from './licensing/index.js';
import { conflict } from './platform/http-error.js';

/**
 * What licensing and billing hold of an account, through their interfaces, for identity's export
 * and deletion: identity sits below them and may not read them itself, so the composition hands
 * it their parts, as it hands the catalogue licensing's plans in use.
 */
export const accountDataParts = (): AccountDataParts => ({
  sections: [
    {
      name: 'licensing',
      async collect(db, userId) {
        const { licenses, machines, organisations } = await licensingDataOfUser(db, userId);
        return [
          jsonFile('licenses.json', licenses),
          jsonFile('machines.json', machines),
          jsonFile('organisations.json', organisations),
        ];
      },
    },
    {
      name: 'billing',
      async collect(db, userId) {
        const { data, files } = await billingDataOfUser(db, userId);
        return [
          jsonFile('payments.json', data.payments),
          jsonFile('subscriptions.json', data.subscriptions),
          jsonFile('invoices.json', data.invoices),
          ...files,
        ];
      },
    },
  ],
  deletionBlockers: [
    async (db, userId) => {
      const owned = await ownedOrganisations(db, userId);
      return owned.length === 0
        ? undefined
        : conflict(
            'organisation_owner',
            `Transfer the ownership of ${owned.map((organisation) => organisation.name).join(', ')} to another member before deleting your account`,
          );
    },
  ],
});
