// The custom elements' DOM helpers (@tandem/messenger, @tandem/devtools): one copy, in core's internal entry.
// DOM built from nodes, never from markup: data reaches the page as text nodes only (no
// innerHTML anywhere), which a strict CSP and untrusted message text both need.

type Attrs = Record<string, string | false | null | undefined>

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

/** Visually hidden, still read by screen readers. */
export const SR_ONLY =
  '.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}'
