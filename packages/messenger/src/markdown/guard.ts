// What is not worth parsing: Markdown no article is written in, which would cost the page's main
// thread seconds. marked's emphasis pass is quadratic in the `*` and `_` of one paragraph (25,000
// of them, "*a*a*a…", took 2.6 s; "_a_a…" 8.7 s), and a line of thousands of nested quotes or list
// markers overflows its stack after most of a second. Such text is shown as text instead.

/** Emphasis delimiters (`*`, `_`, `~`) one paragraph may hold: a dense article paragraph has a few dozen. */
export const MAX_DELIMITERS = 1_000

/** Containers one line may open ("> > > …", "- - - …", "1. 1. …"): deeper is shown as text anyway (MAX_DEPTH). */
export const MAX_LINE_NESTING = 24

// Bounded quantifiers only: the check itself stays linear on hostile input.
const DEEP_LINE = new RegExp(`^(?:[ \\t]{0,3}(?:>|[*+-][ \\t]|\\d{1,9}[.)][ \\t])){${MAX_LINE_NESTING}}`, 'm')

const DELIMITERS = new Set(['*', '_', '~'])

/** Whether `markdown` is worth giving to the parser: no paragraph dense with delimiters, no line nested deep. */
export function parseable(markdown: string): boolean {
  if (DEEP_LINE.test(markdown)) return false
  let count = 0
  let blank = true
  for (let i = 0; i < markdown.length; i++) {
    const c = markdown[i]!
    if (c === '\n') {
      // A blank line ends a paragraph: its delimiters do not meet the next one's.
      if (blank) count = 0
      blank = true
    } else if (c !== ' ' && c !== '\t') {
      blank = false
      if (DELIMITERS.has(c) && ++count > MAX_DELIMITERS) return false
    }
  }
  return true
}
