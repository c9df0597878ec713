import type { ReactNode } from 'react';
import { ShieldIcon } from '../../../components/brand/icons';
import { Notice } from '../../../components/data/alert-notice';

/** The payment sandbox's warning: nothing here is real money. */
export function SandboxNotice({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Notice
      color="orange"
      variant="light"
      icon={<ShieldIcon size={20} />}
      title={title}
      data-testid={testId}
      role="note"
    >
      {children}
    </Notice>
  );
}
