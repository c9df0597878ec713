import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { UnsubscribeAnswer } from '../../../shared/api/notifications.js';
import { mailBrand } from '../../platform/mail/brand.js';

const { light, dark } = mailBrand;

const STYLE = `
body { margin: 0; padding: 48px 16px; background: ${light.page}; color: ${light.text}; font-family: ${mailBrand.fontFamily}; }
main { max-width: 480px; margin: 0 auto; background: ${light.card}; border: 1px solid ${light.border}; border-radius: 16px; padding: 32px; }
.brand { color: ${light.primary}; font-size: 14px; font-weight: 700; letter-spacing: 0.04em; text-transform: uppercase; margin: 0 0 24px; }
h1 { font-size: 24px; line-height: 32px; margin: 0 0 16px; }
p { font-size: 16px; line-height: 24px; margin: 0 0 16px; }
a { color: ${light.link}; }
button { font: inherit; font-weight: 600; color: ${light.onPrimary}; background: ${light.primary}; border: 0; border-radius: 8px; padding: 12px 24px; cursor: pointer; }
button:focus-visible { outline: 3px solid ${light.link}; outline-offset: 2px; }
@media (prefers-color-scheme: dark) {
  body { background: ${dark.page}; color: ${dark.text}; }
  main { background: ${dark.card}; border-color: ${dark.border}; }
  a, .brand { color: ${dark.link}; }
}
`;

/**
 * The small page a person sees after following an unsubscribe link in a browser: the question
 * with its button (the link itself changes nothing), or what was done, in the portal's colours.
 */
export function unsubscribePage(
  answer: UnsubscribeAnswer,
  options: { confirm: boolean; profileUrl: string },
): string {
  const title = options.confirm && answer.subscribed ? 'Unsubscribe' : 'Unsubscribed';
  const page = h(
    'html',
    { lang: 'en' },
    h(
      'head',
      null,
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('meta', { name: 'color-scheme', content: 'light dark' }),
      h('title', null, `${title} · ${mailBrand.productName}`),
      h('style', null, STYLE),
    ),
    h(
      'body',
      null,
      h(
        'main',
        null,
        h('p', { className: 'brand' }, mailBrand.productName),
        h('h1', null, title),
        h('p', null, answer.message),
        options.confirm && answer.subscribed
          ? // Posts to this very address (its token included): the one-click field says what it is.
            h(
              'form',
              { method: 'post' },
              h('input', { type: 'hidden', name: 'List-Unsubscribe', value: 'One-Click' }),
              h('button', { type: 'submit' }, 'Unsubscribe'),
            )
          : h('p', null, h('a', { href: options.profileUrl }, 'Open your notification preferences')),
      ),
    ),
  );
  return `<!DOCTYPE html>${renderToStaticMarkup(page)}`;
}
