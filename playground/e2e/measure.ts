// What axe-core cannot see: how visible the keyboard focus is, and how big the touch targets are.
// Both are measured in the page from computed styles and layout boxes.
import type { Page } from 'playwright-core'

export interface Ring {
  /** Tag, id, class and text of the focused element: enough to find it. */
  element: string
  /** Contrast of the indicator against the background it is drawn on (0 when there is none). */
  contrast: number
  /** Its thickness in CSS px. */
  width: number
  /** The scrolling or clipping ancestor that cuts the ring off, if one does. */
  clippedBy: string | null
}

/**
 * The focus indicator of the focused element: its outline (or box-shadow ring), compared with
 * what those pixels show without focus, i.e. the background behind the ring (the parent's for an
 * outer ring, the element's own for an inset one): WCAG 2.2's 3:1 for non-text contrast.
 */
export function focusRing(page: Page): Promise<Ring | null> {
  return page.evaluate(() => {
    // Focus inside a shadow root (the messenger's launcher) is the host's `activeElement`: go in.
    let el = document.activeElement as HTMLElement | null
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement
    if (!el || el === document.body) return null
    // Up the tree, across a shadow root's edge to its host.
    const parentOf = (e: Element): HTMLElement | null =>
      e.parentElement ?? ((e.getRootNode() as ShadowRoot).host as HTMLElement | undefined) ?? null
    const rgba = (c: string) => {
      const n = (c.match(/[\d.]+/g) ?? []).map(Number)
      return { r: n[0] ?? 0, g: n[1] ?? 0, b: n[2] ?? 0, a: c.startsWith('rgba') ? (n[3] ?? 1) : n.length ? 1 : 0 }
    }
    // The colour an element's box shows: its background over its ancestors' (white at the end).
    const backdrop = (from: Element | null) => {
      const layers: ReturnType<typeof rgba>[] = []
      for (let e = from; e; e = parentOf(e)) {
        const c = rgba(getComputedStyle(e).backgroundColor)
        if (c.a > 0) layers.push(c)
        if (c.a >= 1) break
      }
      return layers.reduceRight(
        (under, c) => ({
          r: c.r * c.a + under.r * (1 - c.a),
          g: c.g * c.a + under.g * (1 - c.a),
          b: c.b * c.a + under.b * (1 - c.a),
          a: 1,
        }),
        { r: 255, g: 255, b: 255, a: 1 },
      )
    }
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
    }
    const contrastOf = (a: ReturnType<typeof rgba>, b: ReturnType<typeof rgba>) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
      return (hi + 0.05) / (lo + 0.05)
    }

    const s = getComputedStyle(el)
    let color = rgba('transparent')
    let width = 0
    let outside = 0 // how far the ring reaches beyond the border box
    let inset = false
    if (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) {
      color = rgba(s.outlineColor)
      width = parseFloat(s.outlineWidth)
      const offset = parseFloat(s.outlineOffset)
      inset = offset <= -width
      outside = Math.max(0, offset + width)
    } else if (s.boxShadow !== 'none') {
      // `rgb(…) 0px 0px 0px 3px [inset]`: the spread is the ring's width.
      const m = s.boxShadow.match(/^(rgba?\([^)]*\))\s+0px\s+0px\s+0px\s+([\d.]+)px(\s+inset)?/)
      if (m) {
        color = rgba(m[1]!)
        width = parseFloat(m[2]!)
        inset = Boolean(m[3])
        outside = inset ? 0 : width
      }
    }
    const behind = backdrop(inset ? el : parentOf(el))
    const contrast = color.a > 0 ? contrastOf({ ...color, a: 1 }, behind) : 0

    // A ring outside the box is lost where an ancestor clips (overflow other than visible).
    const r = el.getBoundingClientRect()
    let clippedBy: string | null = null
    for (let a = parentOf(el); a && a !== document.documentElement && !clippedBy; a = parentOf(a)) {
      const as = getComputedStyle(a)
      const box = a.getBoundingClientRect()
      const left = box.left + a.clientLeft
      const top = box.top + a.clientTop
      const cutX =
        as.overflowX !== 'visible' && (r.left - outside < left - 0.5 || r.right + outside > left + a.clientWidth + 0.5)
      const cutY =
        as.overflowY !== 'visible' && (r.top - outside < top - 0.5 || r.bottom + outside > top + a.clientHeight + 0.5)
      if (cutX || cutY) clippedBy = `${a.tagName.toLowerCase()}.${a.className}`
    }
    const text = (el.textContent ?? '').trim().slice(0, 30)
    const element = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).replace(/\s+/g, '.')}` : ''} "${text}"`
    return { element, contrast: Math.round(contrast * 100) / 100, width, clippedBy }
  })
}

export interface Target {
  element: string
  width: number
  height: number
}

/**
 * Every visible interactive element's target box. A checkbox or radio inside its label is the
 * label (a tap on the label toggles it); visually hidden ones (sr-only) are not targets.
 */
export function targets(page: Page): Promise<Target[]> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input, select, textarea, summary, [role="tab"], [tabindex]:not([tabindex="-1"])'
    const seen = new Set<Element>()
    const out: { element: string; width: number; height: number }[] = []
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      const label = el.closest('label')
      const target = el instanceof HTMLInputElement && /checkbox|radio/.test(el.type) && label ? label : el
      if (seen.has(target) || target.closest('.sr-only')) continue
      seen.add(target)
      // The skip link sits above the page until it has focus; it is measured like the rest.
      const r = target.getBoundingClientRect()
      if (!r.width && !r.height) continue // not rendered (another tab's panel, [hidden])
      const text = (target.textContent ?? '').trim().slice(0, 24)
      out.push({
        element: `${target.tagName.toLowerCase()}${target.className ? `.${String(target.className).split(/\s+/)[0]}` : ''} "${text}"`,
        width: Math.round(r.width * 10) / 10,
        height: Math.round(r.height * 10) / 10,
      })
    }
    return out
  })
}

/** Presses Tab until focus comes back round, measuring each focused element's ring on the way. */
export async function ringsByKeyboard(page: Page, max = 200): Promise<Ring[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  const rings: Ring[] = []
  const seen = new Set<string>()
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    const ring = await focusRing(page)
    if (!ring) continue // the browser's own UI between the last element and the first
    if (seen.has(ring.element)) break
    seen.add(ring.element)
    rings.push(ring)
  }
  return rings
}
