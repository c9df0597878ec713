import { Alert, type AlertProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { AlertIcon, CheckIcon } from '../brand/icons';

export type NoticeTone = 'danger' | 'warning' | 'caution' | 'success' | 'info';

/**
 * Alert colours and title colours: Mantine's light-variant titles (shade 6–9 on a tint of the same
 * hue) fall under 4.5:1 for red, orange, yellow and teal, so the titles use darker shades here.
 */
const TONES: Record<NoticeTone, { color: string; title: string }> = {
  danger: { color: 'red', title: 'light-dark(#b02525, var(--mantine-color-red-3))' },
  warning: { color: 'orange', title: 'light-dark(#9c3508, var(--mantine-color-orange-3))' },
  caution: { color: 'yellow', title: 'light-dark(#6e4700, var(--mantine-color-yellow-3))' },
  success: { color: 'teal', title: 'light-dark(#05614a, var(--mantine-color-teal-3))' },
  info: { color: 'iris', title: 'light-dark(var(--mantine-color-iris-8), var(--mantine-color-iris-3))' },
};

export interface NoticeProps extends Omit<AlertProps, 'color' | 'variant' | 'title' | 'children'> {
  tone: NoticeTone;
  title?: ReactNode;
  children?: ReactNode;
  /** Announce it as it appears (errors the user must act on). */
  urgent?: boolean;
}

/** A light alert whose title and text stay readable (WCAG AA) in both colour schemes. */
export function Notice({ tone, title, children, urgent = false, icon, ...props }: NoticeProps) {
  const { color, title: titleColor } = TONES[tone];
  return (
    <Alert
      color={color}
      variant="light"
      title={title}
      icon={icon ?? (tone === 'success' ? <CheckIcon size={20} /> : <AlertIcon size={20} />)}
      role={urgent ? 'alert' : 'status'}
      styles={{ title: { color: titleColor }, message: { color: 'var(--mantine-color-text)' } }}
      {...props}
    >
      {children}
    </Alert>
  );
}
