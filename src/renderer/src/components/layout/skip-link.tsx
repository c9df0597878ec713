import { Trans } from '@lingui/react/macro';
import classes from './skip-link.module.css';

/** First tab stop of every page: keyboard users jump past the header to the content. */
export function SkipLink({ target }: { target: string }) {
  return (
    <a className={classes.link} href={`#${target}`}>
      <Trans>Skip to content</Trans>
    </a>
  );
}
