import { Box, Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './auth-card.module.css';

interface AuthCardProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Links under the card, e.g. "No account yet? Create one". */
  footer?: ReactNode;
}

/** The centred card every sign-in, registration and recovery screen is built in. */
export function AuthCard({ title, description, children, footer }: AuthCardProps) {
  return (
    <Container size={460} px="md" py={{ base: 'xl', sm: 64 }}>
      <Paper withBorder shadow="md" p={{ base: 'lg', xs: 'xl' }} className={classes.card}>
        <Stack gap={6} mb="lg">
          <Title order={1} fz={{ base: 24, xs: 28 }}>
            {title}
          </Title>
          {description && (
            <Text c="dimmed" size="sm">
              {description}
            </Text>
          )}
        </Stack>
        {children}
      </Paper>
      {footer && (
        <Box mt="lg" ta="center" className={classes.footer}>
          {footer}
        </Box>
      )}
    </Container>
  );
}
