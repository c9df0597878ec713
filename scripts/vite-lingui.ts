import { type PluginObj, transformAsync, types } from '@babel/core';
import linguiMacro from '@lingui/babel-plugin-lingui-macro';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { lingui } from '@lingui/vite-plugin';
import type { Plugin } from 'vite';

/** Modules that use Lingui's macros name one of these. */
const MACRO_IMPORT = /from ['"]@lingui\/(core|react)\/macro['"]/;

/**
 * Each English message the macros leave (`{ id, message: 'Hello {name}' }`) compiled into the form
 * Lingui interpolates (`['Hello ', ['name']]`), once the macros are done: the portal ships no ICU
 * parser (7 KB gzip in the first download), and English costs no parsing on screen.
 */
function precompiledEnglish(): PluginObj {
  return {
    visitor: {
      Program: {
        exit(program) {
          program.traverse({
            ObjectExpression(path) {
              const properties = path.node.properties.filter(
                (property) => property.type === 'ObjectProperty',
              );
              const named = (name: string) =>
                properties.find(
                  (property) => property.key.type === 'Identifier' && property.key.name === name,
                );
              const message = named('message');
              if (!named('id') || message?.value.type !== 'StringLiteral') return;
              const compiled = compileMessage(message.value.value);
              // Plain text stays a string (its quoting undone); the rest becomes text and placeholders.
              message.value =
                compiled.length === 1 && typeof compiled[0] === 'string'
                  ? types.stringLiteral(compiled[0])
                  : types.valueToNode(compiled);
            },
          });
        },
      },
    },
  };
}

/**
 * Lingui's macros (`t`, `<Trans>`, `plural`…) expanded by Babel before Vite's own transform, only in
 * the modules that import them. Vite 8 compiles with Oxc and has no Babel pass of its own; Lingui's
 * Oxc-native transform needs Node 22, and the project still runs on Node 20.
 *
 * English stays in the code (`stripMessageField: false`), compiled: it is the source language, shown
 * without a catalog, and the pseudo-locale is made from it (src/renderer/src/lib/i18n).
 */
function linguiMacros(): Plugin {
  return {
    name: 'lingui-macros',
    enforce: 'pre',
    async transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (!/\.[cm]?[jt]sx?$/.test(file) || file.includes('/node_modules/') || !MACRO_IMPORT.test(code))
        return undefined;
      const result = await transformAsync(code, {
        filename: file,
        babelrc: false,
        configFile: false,
        sourceMaps: true,
        parserOpts: { plugins: file.endsWith('x') ? ['typescript', 'jsx'] : ['typescript'] },
        plugins: [[linguiMacro, { stripMessageField: false }], precompiledEnglish],
      });
      if (!result?.code) return undefined;
      return { code: result.code, map: result.map };
    },
  };
}

/**
 * Everything Vite needs for the portal's languages: the macros, and `.po` catalogs compiled when
 * imported. `failOnMissing` refuses a build whose catalog leaves a message untranslated.
 */
export function portalLanguages({ failOnMissing }: { failOnMissing: boolean }): Plugin[] {
  return [linguiMacros(), ...(lingui({ failOnMissing, failOnCompileError: true }) as Plugin[])];
}
