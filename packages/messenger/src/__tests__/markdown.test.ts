// The help centre's article renderer (issue 44 row 8) on hostile Markdown: script URLs in every
// disguise, raw HTML, 50 KB of text, nesting thousands deep. What it builds is DOM nodes only
// (innerHTML and its kin throw while it runs), links only to http(s) and mailto.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_STRINGS } from '../strings.js'
import { MAX_DEPTH, renderMarkdown } from '../markdown/render.js'

const render = (md: string) => {
  const div = document.createElement('div')
  div.append(renderMarkdown(md, DEFAULT_STRINGS))
  return div
}

/** Every element name, attribute name and URL the render produced. */
const inventory = (root: Element) => {
  const all = [...root.querySelectorAll('*')]
  return {
    tags: new Set(all.map((e) => e.tagName.toLowerCase())),
    attrs: new Set(all.flatMap((e) => [...e.attributes].map((a) => a.name))),
    hrefs: all.filter((e) => e.tagName === 'A').map((e) => e.getAttribute('href')!),
  }
}

const ALLOWED_TAGS = [
  'p',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'span',
  'br',
  'hr',
  'h4',
  'h5',
  'h6',
  'div',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]
const ALLOWED_ATTRS = ['href', 'target', 'rel', 'title', 'class', 'start', 'tabindex']

describe('renderMarkdown', () => {
  // Any HTML string parsed while it renders fails the test: the renderer builds nodes, never markup.
  const traps = [
    [Element.prototype, 'innerHTML'],
    [Element.prototype, 'outerHTML'],
  ] as const
  const saved = traps.map(([proto, key]) => Object.getOwnPropertyDescriptor(proto, key))
  const savedAdjacent = Element.prototype.insertAdjacentHTML
  beforeAll(() => {
    for (const [proto, key] of traps)
      Object.defineProperty(proto, key, {
        configurable: true,
        get: () => '',
        set: () => {
          throw new Error(`${key} was set`)
        },
      })
    Element.prototype.insertAdjacentHTML = () => {
      throw new Error('insertAdjacentHTML was called')
    }
  })
  afterAll(() => {
    traps.forEach(([proto, key], i) => saved[i] && Object.defineProperty(proto, key, saved[i]))
    Element.prototype.insertAdjacentHTML = savedAdjacent
  })

  it('renders emphasis, headings, lists, code, quotes and safe links as elements', () => {
    const div = render(
      [
        '# Billing',
        'Open **Settings** from the _menu_, then ~~wait~~ `Save`.',
        '',
        '> Changes apply at once.',
        '',
        '1. one',
        '2. two',
        '',
        '- [x] done',
        '- to do',
        '',
        '```',
        'let x = 1 < 2 && 3',
        '```',
        '',
        'See [the docs](https://example.com/a?b=1&amp;c=2 "Docs &amp; more") or [mail us](mailto:help@example.com).',
        '',
        '| a | b |',
        '|---|---|',
        '| **1** | 2 |',
      ].join('\n'),
    )
    expect(div.querySelector('h4')?.textContent).toBe('Billing')
    expect(div.querySelector('strong')?.textContent).toBe('Settings')
    expect(div.querySelector('em')?.textContent).toBe('menu')
    expect(div.querySelector('del')?.textContent).toBe('wait')
    expect(div.querySelector('p code')?.textContent).toBe('Save')
    expect(div.querySelector('blockquote p')?.textContent).toBe('Changes apply at once.')
    expect([...div.querySelectorAll('ol li')].map((li) => li.textContent)).toEqual(['one', 'two'])
    expect([...div.querySelectorAll('ul li')].map((li) => li.textContent)).toEqual(['☑ done', 'to do'])
    expect(div.querySelector('pre code')?.textContent).toBe('let x = 1 < 2 && 3')
    expect(div.querySelector('td strong')?.textContent).toBe('1')
    expect(div.textContent).not.toContain('**')

    const [web, mail] = [...div.querySelectorAll('a')]
    expect(web!.getAttribute('href')).toBe('https://example.com/a?b=1&c=2')
    expect(web!.getAttribute('title')).toBe('Docs & more')
    expect(web!.getAttribute('rel')).toBe('noopener noreferrer')
    expect(web!.getAttribute('target')).toBe('_blank')
    expect(web!.textContent).toBe('the docs (opens in a new tab)')
    expect(web!.querySelector('.sr')?.textContent).toBe(' (opens in a new tab)')
    expect(mail!.getAttribute('href')).toBe('mailto:help@example.com')
    expect(mail!.hasAttribute('target')).toBe(false)
  })

  it('gives no link a script, data or relative URL, in any disguise', () => {
    const hostile = [
      '[a](javascript:alert(1))',
      '[b](JaVaScRiPt:alert(1))',
      '[c](&#106;avascript:alert(1))',
      '[d](java&#9;script:alert(1))',
      '[e](&#x6A;avascript&#x3A;alert(1))',
      '<javascript:alert(1)>',
      '[f](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
      '[g](vbscript:msgbox(1))',
      '[h](/relative/path)',
      '[i](//evil.example/x)',
      '[j]: javascript:alert(1)\n\n[ref][j]',
      '[k](%6Aavascript:alert(1))',
    ].join('\n\n')
    const div = render(hostile)
    expect(inventory(div).hrefs).toEqual([])
    // The links' words stay, as text.
    for (const word of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'ref', 'k'])
      expect(div.textContent).toContain(word)
  })

  it('never turns raw HTML into elements, attributes or handlers', () => {
    const div = render(
      [
        '<script>alert(1)</script>',
        '',
        '<img src=x onerror="alert(1)">',
        '',
        'inline <b onclick="alert(1)">bold</b> and <a href="javascript:alert(1)">link</a>',
        '',
        '<iframe src="https://evil.example"></iframe>',
        '',
        '<style>*{display:none}</style>',
        '',
        '![logo](https://evil.example/pixel.png) ![](javascript:alert(1))',
      ].join('\n'),
    )
    const { tags, attrs, hrefs } = inventory(div)
    expect([...tags].filter((t) => !ALLOWED_TAGS.includes(t))).toEqual([])
    expect([...attrs].filter((a) => !ALLOWED_ATTRS.includes(a))).toEqual([])
    expect(hrefs).toEqual([])
    // Blocks of HTML are shown as what they are, text; an image is its alt text, never a request.
    expect(div.textContent).toContain('<script>alert(1)</script>')
    expect(div.textContent).toContain('bold')
    expect([...div.querySelectorAll('.image')].map((e) => e.textContent)).toEqual(['[Image: logo]', '[Image]'])
  })

  it('renders 50 KB of text, and nesting thousands deep, without throwing or going deeper than its cap', () => {
    const long = Array.from({ length: 700 }, (_, i) => `Step ${i}: open **Settings** and _look_.`).join('\n\n')
    expect(long.length).toBeGreaterThan(25_000)
    const big = render(long.repeat(2).slice(0, 50_000))
    expect(big.querySelectorAll('strong').length).toBeGreaterThan(1_000)

    // Nesting thousands deep (which overflows marked's stack) and a paragraph dense with emphasis
    // delimiters (quadratic in marked: "_a" 25,000 times took 8.7 s) are shown as their text, at once.
    const hostile = {
      quotes: '> '.repeat(5_000) + 'deep',
      lists: '- '.repeat(5_000) + 'deep',
      stars: '*a'.repeat(25_000),
      underscores: '_a'.repeat(25_000),
    }
    for (const [name, md] of Object.entries(hostile)) {
      const div = render(md)
      expect(div.querySelectorAll('*').length, name).toBe(1)
      expect(div.querySelector('p.plain')?.textContent, name).toBe(md)
    }
    // Short of those limits, deep nesting is parsed and shown no deeper than MAX_DEPTH boxes.
    const nested = render(Array.from({ length: 60 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n'))
    let depth = 0
    for (let e: Element | null = nested.querySelector('*:not(:has(*))'); e && e !== nested; e = e.parentElement) depth++
    expect(depth).toBeGreaterThan(10)
    expect(depth).toBeLessThanOrEqual(MAX_DEPTH + 2)
    expect(nested.textContent).toContain('level 59')
    // 50,000 brackets: no link, all the text.
    expect(render('['.repeat(50_000)).textContent).toBe('['.repeat(50_000))
  })

  it('uses the strings it is given', () => {
    const div = document.createElement('div')
    div.append(
      renderMarkdown('[Hilfe](https://example.com) ![Logo](x.png)', {
        opensInNewTab: '(öffnet einen neuen Tab)',
        image: (alt) => `Bild: ${alt}`,
      }),
    )
    expect(div.textContent).toBe('Hilfe (öffnet einen neuen Tab) Bild: Logo')
  })
})
