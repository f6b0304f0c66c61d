// The help centre: a search over the published articles (docs.search), and an article, its
// Markdown rendered as DOM nodes by a module imported when the first article opens (../markdown).
// A newer search aborts the one still on its way, so results never arrive out of order.
import { h } from '@tandem/elements'
import { DEFAULTS } from '../defaults.js'
import type { PanelContext, View } from './view.js'

export function createHelpView(ctx: PanelContext): View {
  const label = h('label', { for: 'tandem-search' })
  const input = h('input', { id: 'tandem-search', type: 'search' })
  const submit = h('button', { type: 'submit', class: 'primary' })
  const form = h('form', { role: 'search', class: 'search' }, label, h('div', { class: 'row' }, input, submit))
  const status = h('p', { class: 'note', role: 'status' })
  const results = h('ul', { class: 'list' })
  const node = h('div', { class: 'view' }, form, status, results)
  let pending: AbortController | undefined

  const search = async (query: string) => {
    pending?.abort()
    const ours = (pending = new AbortController())
    const s = ctx.strings()
    status.textContent = s.loading
    try {
      const page = await ctx.messenger.docs.search({ query, limit: DEFAULTS.searchLimit }, { signal: ours.signal })
      if (ours.signal.aborted) return
      results.replaceChildren(
        ...page.data.map((a) => {
          const button = h(
            'button',
            { type: 'button', class: 'item' },
            h('strong', {}, a.title),
            h('span', { class: 'preview' }, a.excerpt),
          )
          button.addEventListener('click', () => ctx.showArticle(a.id))
          return h('li', {}, button)
        }),
      )
      status.textContent = page.data.length === 0 ? s.noResults : ''
    } catch {
      if (!ours.signal.aborted) status.textContent = s.loadFailed
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    if (input.value.trim()) void search(input.value.trim())
  })

  const refresh = () => {
    const s = ctx.strings()
    label.textContent = s.searchLabel
    submit.textContent = s.search
  }
  refresh()

  return {
    node,
    tab: 'help',
    title: () => ctx.strings().helpTab,
    focus: () => input.focus(),
    refresh,
    destroy: () => pending?.abort(),
  }
}

/** The renderer, one import for the page; a failed one (offline) is tried again with the next article. */
let markdownModule: Promise<typeof import('../markdown/index.js')> | undefined
const loadMarkdown = () =>
  (markdownModule ??= import('../markdown/index.js').catch((error: unknown) => {
    markdownModule = undefined
    throw error
  }))

export function createArticleView(ctx: PanelContext, id: string): View {
  const heading = h('h3', { tabindex: '-1' })
  const body = h('div', { class: 'article' })
  const node = h('article', { class: 'view' }, heading, body)
  const abort = new AbortController()
  let text: string | undefined
  heading.textContent = ctx.strings().loading

  /** The article's Markdown as nodes; as plain text if the renderer cannot load (offline). */
  const render = async () => {
    if (text === undefined) return
    const shown = text
    const markdown = await loadMarkdown().catch(() => undefined)
    if (abort.signal.aborted || shown !== text) return
    if (!markdown) return void (body.textContent = shown)
    body.classList.add('md')
    body.replaceChildren(markdown.renderMarkdown(shown, ctx.strings()))
  }

  ctx.messenger.docs.get(id, { signal: abort.signal }).then(
    (article) => {
      heading.textContent = article.title
      text = article.text
      return render()
    },
    () => {
      if (!abort.signal.aborted) heading.textContent = ctx.strings().loadFailed
    },
  )

  return {
    node,
    tab: 'help',
    title: () => ctx.strings().helpTab,
    back: () => ctx.showHelp(),
    focus: () => heading.focus(),
    // The strings an article uses (a link's "opens in a new tab", an image's words): rendered again.
    refresh: () => void render(),
    destroy: () => abort.abort(),
  }
}
