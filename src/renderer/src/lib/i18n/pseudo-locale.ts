import type {
  CompiledIcuChoices,
  CompiledMessage,
  CompiledMessageToken,
} from '@lingui/message-utils/compileMessage';
import { pseudoText } from '../../../../shared/pseudo-text';

export { pseudoText };

/**
 * A compiled message (a string, or Lingui's array of text and placeholders, with plural choices
 * nested) with its text made pseudo and its placeholders and tags left alone.
 */
export function pseudoMessage(message: string | CompiledMessage): string | CompiledMessage {
  if (typeof message === 'string') return pseudoMarkup(message);
  return message.map((token): CompiledMessageToken => {
    if (typeof token === 'string') return pseudoMarkup(token);
    const [name, type, choices] = token;
    if (!choices || typeof choices !== 'object') return token;
    const pseudoChoices = Object.fromEntries(
      Object.entries(choices as CompiledIcuChoices).map(([key, choice]) => [
        key,
        Array.isArray(choice) ? pseudoMessage(choice) : choice,
      ]),
    );
    return [name, type, pseudoChoices];
  });
}

/** Text between `<0>` tags (a `<Trans>` with elements) pseudo, the tags themselves kept. */
const pseudoMarkup = (text: string): string =>
  text
    .split(/(<\/?\d+\/?>)/)
    .map((part, index) => (index % 2 ? part : pseudoText(part)))
    .join('');

export { looksUntranslated } from '../../../../shared/languages';
