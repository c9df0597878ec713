import { createRequire } from 'node:module';

// @xmldom/xmldom (the parser node-saml and xml-crypto use) read through the few DOM members the
// SAML code needs. Its type declarations pull the browser's whole DOM library into the server's
// program (where they clash with Node's fetch types), so it is loaded untyped and typed here.

export interface XmlNode {
  readonly nodeType: number;
  readonly nextSibling: XmlNode | null;
}

export interface XmlElement extends XmlNode {
  readonly namespaceURI: string | null;
  readonly localName: string;
  readonly textContent: string | null;
  readonly firstChild: XmlNode | null;
  getAttribute(name: string): string | null;
  getElementsByTagNameNS(namespace: string, localName: string): ArrayLike<XmlElement>;
}

interface XmlParser {
  parseFromString(xml: string, mimeType: string): { documentElement: XmlElement | null } | undefined;
}

type DomParserClass = new (options?: {
  errorHandler?: {
    warning?: (message: string) => void;
    error?: (message: string) => void;
    fatalError?: (message: string) => void;
  };
}) => XmlParser;

let domParser: DomParserClass | undefined;
/** Loaded at the first SAML document read, not with every start of the server. */
const DOMParser = (): DomParserClass =>
  (domParser ??= (createRequire(import.meta.url)('@xmldom/xmldom') as { DOMParser: DomParserClass })
    .DOMParser);

/** The document element of `xml`, or the parser's first complaint. */
export function parseXml(xml: string): { root: XmlElement | null; problems: string[] } {
  const problems: string[] = [];
  const record = (message: string) => problems.push(String(message));
  const Parser = DOMParser();
  const doc = new Parser({
    errorHandler: { warning: () => {}, error: record, fatalError: record },
  }).parseFromString(xml, 'text/xml');
  return { root: doc?.documentElement ?? null, problems };
}

/** The direct children of `parent` named `local` in `namespace`. */
export function childrenOf(parent: XmlElement, namespace: string, local: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== 1) continue;
    const element = node as XmlElement;
    if (element.namespaceURI === namespace && element.localName === local) found.push(element);
  }
  return found;
}

/** The elements named `local` in `namespace` anywhere under `root`. */
export const descendantsOf = (root: XmlElement, namespace: string, local: string): XmlElement[] =>
  Array.from(root.getElementsByTagNameNS(namespace, local));
