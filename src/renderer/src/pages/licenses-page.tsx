import { Stack, Text, Title } from '@mantine/core';
import { ThisMachineCard } from '../features/license/this-machine-card';

// The full licenses screen is a later issue; for now the heading and this machine's license state.
export default function LicensesPage() {
  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={4}>
        <Title order={1}>Licenses</Title>
        <Text c="dimmed">Your licenses and the state of the license on this machine.</Text>
      </Stack>
      <ThisMachineCard />
    </Stack>
  );
}
