// Character references in Markdown text: numeric ones, and the few named ones articles use. A
// name outside the list stays as written ("&copy;"): the full table of HTML's 2,231 names would
// cost more than the parser, and a browser's own decoder means innerHTML, which this package never uses.
const NAMED = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', '\u00a0'],
])

const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,6}));/g

/** A code point a reference may name; NUL, surrogates and beyond U+10FFFF become U+FFFD (as HTML does). */
const codePoint = (n: number) =>
  String.fromCodePoint(n === 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff) ? 0xfffd : n)

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(REFERENCE, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) =>
    dec !== undefined
      ? codePoint(Number(dec))
      : hex !== undefined
        ? codePoint(parseInt(hex, 16))
        : (NAMED.get(name!) ?? whole),
  )
}
