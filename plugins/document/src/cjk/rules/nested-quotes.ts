/**
 * `cjkNestedQuotes`: inside corner quotes 「…」, a quoted quotation takes the double
 * corner brackets 『…』 (the Chinese and Japanese nesting), whether it was written
 * ‘…’ or '…'. An apostrophe (a letter on its outer side) never opens or closes one.
 */
const CORNER_QUOTED = /「([^「」]*)」/g;
const INNER_QUOTED = /(?<![A-Za-z])[‘']([^‘’'「」\n]+)[’'](?![A-Za-z])/g;

export function convertNestedCornerQuotes(text: string): string {
  if (!text.includes('「')) return text;
  return text.replace(
    CORNER_QUOTED,
    (_match, inner: string) => `「${inner.replace(INNER_QUOTED, '『$1』')}」`,
  );
}
