import type { SVGProps } from 'react';

/** Small inline line icons (24-unit grid, currentColor): the portal ships no icon library. */
export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

/** The frame every icon draws in. */
export function Icon({ size = 20, children, ...props }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}
