// DOM built from nodes, never from markup: data reaches the page as text nodes only (no
// innerHTML anywhere), which a strict CSP and untrusted message text both need.

export type Attrs = Record<string, string | false | null | undefined>

/** An element with attributes (false/null/undefined: left out) and children (strings become text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) if (typeof value === 'string') el.setAttribute(name, value)
  el.append(...children)
  return el
}

/** A stylesheet built once per document realm and adopted by each shadow root (CSP: no <style>). */
export function sheet(css: string): () => CSSStyleSheet {
  let built: CSSStyleSheet | undefined
  return () => {
    if (!built) {
      built = new CSSStyleSheet()
      built.replaceSync(css)
    }
    return built
  }
}

/**
 * The rules every launcher's sheet starts with (its own look comes after, so its `.launcher`
 * shadow wins over the focus ring's): hidden means hidden, a focus ring on any background, and
 * `.sr`, visually hidden but still read by screen readers.
 */
export const LAUNCHER_CSS = `[hidden]{display:none!important}
:focus-visible{outline:3px solid #1b1f24;outline-offset:2px;box-shadow:0 0 0 5px #fff}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}`

const SVG = 'http://www.w3.org/2000/svg'

/** An icon of one path in a 24×24 box, hidden from screen readers (its button has a name). */
export function icon(d: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', '0 0 24 24')
  svg.setAttribute('aria-hidden', 'true')
  const path = document.createElementNS(SVG, 'path')
  path.setAttribute('d', d)
  svg.append(path)
  return svg
}
