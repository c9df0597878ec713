import { Drawer, MantineProvider, Modal } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { theme } from '../../../src/renderer/src/theme';

/** The page's own header, as the portal's shells have one. */
function Page({ children }: { children: React.ReactNode }) {
  return (
    <MantineProvider theme={theme}>
      <header>Portal</header>
      {children}
    </MantineProvider>
  );
}

describe('dialogs and landmarks', () => {
  it('an open dialog’s title bar is no second banner landmark, and its title and Close stay reachable', async () => {
    render(
      <Page>
        <Modal opened onClose={() => undefined} title="Buy credits" transitionProps={{ duration: 0 }}>
          Body
        </Modal>
      </Page>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Buy credits' });
    expect(screen.getAllByRole('banner')).toHaveLength(1);
    expect(dialog.querySelector('[role="none"]')?.tagName).toBe('HEADER');
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
  });

  it('so is a drawer’s', async () => {
    render(
      <Page>
        <Drawer opened onClose={() => undefined} title="License details" transitionProps={{ duration: 0 }}>
          Body
        </Drawer>
      </Page>,
    );
    await screen.findByRole('dialog', { name: 'License details' });
    expect(screen.getAllByRole('banner')).toHaveLength(1);
  });
});
