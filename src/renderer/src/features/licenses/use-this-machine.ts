import { failureMessage } from '../../lib/api-errors';
import { useAppSelector } from '../../lib/store-hooks';
import { machineMessages, useCheckLicenseStatusQuery, useGetThisMachineQuery } from './licenses-endpoints';
import { selectLicenseStatus } from './license-slice';

/**
 * This machine as the license screens show it: what the platform knows (id, stored key, desktop
 * details) and the status check of the stored key here, both read again on each visit and by
 * `checkAgain`. The check's answer (or failure) is the license state's `licenseStatus`.
 */
export function useThisMachine() {
  const machine = useGetThisMachineQuery(undefined, { refetchOnMountOrArgChange: true });
  const status = useCheckLicenseStatusQuery(undefined, { refetchOnMountOrArgChange: true });
  const result = useAppSelector(selectLicenseStatus);
  return {
    machine: machine.currentData ?? null,
    machineLoading: machine.isFetching && !machine.currentData,
    machineError: machine.isError ? failureMessage(machine.error, machineMessages.unreadable) : null,
    result,
    checking: status.isFetching || machine.isFetching,
    /** When the status was last answered (for the support details). */
    checkedAt: status.fulfilledTimeStamp ?? status.startedTimeStamp ?? null,
    checkAgain() {
      void machine.refetch();
      void status.refetch();
    },
  };
}
