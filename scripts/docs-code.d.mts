export const CODE_MARKER: RegExp

export interface CodeBlock {
  doc: string
  /** The 1-based line of the block's fence. */
  line: number
  /** The file it is, from the repository's root. */
  file: string
  from: number
  to: number
  actual: string
  expected: string
}

/** What the block under a marker for `file` must hold. */
export function expectedBlock(file: string): string
/** The marked blocks of a markdown file (or of `text`, read as that file). */
export function codeBlocks(doc: string, text?: string): CodeBlock[]
/** Whether the fence on line `i` (0-based) of `lines` opens a marked block. */
export function isMarked(lines: string[], i: number): boolean
/** The markdown text with every marked block rewritten from its file. */
export function rewrite(doc: string, text?: string): string
/** README.md, docs/**.md and the package READMEs. */
export function markdownFiles(): string[]
