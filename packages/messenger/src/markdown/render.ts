// An article's Markdown as DOM nodes, built one by one with createElement and textContent: no
// HTML string is ever parsed (no innerHTML: the messenger runs under `script-src 'self'` with
// Trusted Types). marked's lexer gives the syntax tree; this walks it. Raw HTML in the Markdown is
// never markup: an inline tag is dropped (the text between tags stays), an HTML block is shown as
// text. Links go only to http(s) and mailto (safe-url.ts); images show their alt text, never a
// request to wherever the article points.
import { Lexer, type MarkedToken, type Token, type Tokens } from 'marked'
import { decodeEntities } from './entities.js'
import { parseable } from './guard.js'
import { safeHref } from './safe-url.js'

export interface MarkdownStrings {
  /** Read after a link's text by a screen reader (visually hidden): the link opens a new tab. */
  opensInNewTab: string
  /** What stands for an image: its alt text, or a word when it has none. */
  image: (alt: string) => string
}

/** Nesting past this (a hostile "> > > …" or "- - - …") is shown as its text, not as deeper boxes. */
export const MAX_DEPTH = 24

type Parent = HTMLElement | DocumentFragment

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag)
  if (cls) e.className = cls
  return e
}
const text = (parent: Parent, s: string) => void parent.append(document.createTextNode(s))

/**
 * `markdown` rendered into a fragment. Headings start at `<h{headingLevel}>` (the article's title
 * is the level above). Never throws: text the lexer cannot build a tree of, or should not try to
 * (guard.ts), is shown as plain text.
 */
export function renderMarkdown(markdown: string, strings: MarkdownStrings, headingLevel = 4): DocumentFragment {
  const out = document.createDocumentFragment()
  let tokens: Token[]
  try {
    if (!parseable(markdown)) throw new RangeError('not worth parsing')
    tokens = new Lexer({ gfm: true, breaks: false }).lex(markdown)
  } catch {
    const p = el('p', 'plain')
    p.textContent = markdown
    out.append(p)
    return out
  }

  /** Newer tabs get rel=noopener noreferrer; a screen reader hears that the link leaves the page. */
  const link = (parent: Parent, t: Tokens.Link, depth: number) => {
    const href = safeHref(t.href)
    if (href === null) return children(parent, t.tokens, depth)
    const a = el('a')
    a.href = href
    if (!href.startsWith('mailto:')) {
      a.target = '_blank'
      a.rel = 'noopener noreferrer'
    }
    if (t.title) a.title = decodeEntities(t.title)
    children(a, t.tokens, depth)
    if (a.target) {
      const note = el('span', 'sr')
      note.textContent = ` ${strings.opensInNewTab}`
      a.append(note)
    }
    parent.append(a)
  }

  function children(parent: Parent, list: readonly Token[] | undefined, depth: number): void {
    if (list) for (const t of list) node(parent, t, depth + 1)
  }

  /** A block or inline element holding the token's own children. */
  function wrap(parent: Parent, tag: keyof HTMLElementTagNameMap, list: readonly Token[], depth: number) {
    const e = el(tag)
    children(e, list, depth)
    parent.append(e)
    return e
  }

  function node(parent: Parent, token: Token, depth: number): void {
    if (depth > MAX_DEPTH) return text(parent, token.raw)
    // marked's own tokens; an extension's (none is registered) would fall to `default`.
    const t = token as MarkedToken
    switch (t.type) {
      case 'space':
      case 'def': // a link reference's definition: the links that use it carry its URL
        return
      case 'paragraph':
      case 'blockquote':
      case 'strong':
      case 'em':
      case 'del':
        return void wrap(parent, t.type === 'paragraph' ? 'p' : t.type, t.tokens ?? [], depth)
      case 'heading':
        return void wrap(parent, `h${Math.min(6, headingLevel + t.depth - 1)}` as 'h6', t.tokens, depth)
      case 'text':
        // A list item's text holds inline tokens of its own; a leaf is text with references.
        return t.tokens ? children(parent, t.tokens, depth) : text(parent, t.escaped ? t.text : decodeEntities(t.text))
      case 'escape':
        return text(parent, t.text)
      case 'codespan':
        return void (parent.appendChild(el('code')).textContent = t.text)
      case 'code': {
        const pre = el('pre')
        pre.appendChild(el('code')).textContent = t.text
        return void parent.append(pre)
      }
      case 'br':
        return void parent.append(el('br'))
      case 'hr':
        return void parent.append(el('hr'))
      case 'link':
        return link(parent, t, depth)
      case 'image':
        return void (parent.appendChild(el('span', 'image')).textContent = strings.image(decodeEntities(t.text)))
      case 'checkbox':
        return text(parent, t.checked ? '☑ ' : '☐ ')
      case 'list': {
        const list = el(t.ordered ? 'ol' : 'ul')
        if (t.ordered && typeof t.start === 'number' && t.start !== 1) list.setAttribute('start', String(t.start))
        for (const item of t.items) wrap(list, 'li', item.tokens, depth + 1)
        return void parent.append(list)
      }
      case 'table':
        return table(parent, t, depth)
      case 'html':
        // Markup is never markup here: an inline tag goes (the text around it stays), a block is text.
        return t.block ? void (parent.appendChild(el('p')).textContent = t.text) : undefined
      default:
        // A token this version does not know (a newer marked, an extension): its text, as text.
        return text(parent, token.raw)
    }
  }

  /** A table in a focusable box that scrolls sideways on a narrow screen. */
  function table(parent: Parent, t: Tokens.Table, depth: number) {
    const box = el('div', 'table')
    box.tabIndex = 0
    const tbl = box.appendChild(el('table'))
    const row = (cells: Tokens.TableCell[], tag: 'th' | 'td', into: HTMLElement) => {
      const tr = into.appendChild(el('tr'))
      for (const c of cells) wrap(tr, tag, c.tokens, depth + 1)
    }
    row(t.header, 'th', tbl.appendChild(el('thead')))
    const body = tbl.appendChild(el('tbody'))
    for (const r of t.rows) row(r, 'td', body)
    parent.append(box)
  }

  for (const t of tokens) node(out, t, 0)
  return out
}
