// The help centre: a search over the published articles (docs.search), and an article's text.
// A newer search aborts the one still on its way, so results never arrive out of order.
import { h } from '@tandem/core/internal'
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

export function createArticleView(ctx: PanelContext, id: string): View {
  const heading = h('h3', { tabindex: '-1' })
  const text = h('div', { class: 'article' })
  const node = h('article', { class: 'view' }, heading, text)
  const abort = new AbortController()
  heading.textContent = ctx.strings().loading

  ctx.messenger.docs.get(id, { signal: abort.signal }).then(
    (article) => {
      heading.textContent = article.title
      // The article's text is shown as text: its markup, if any, is never parsed.
      text.textContent = article.text
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
    refresh: () => {},
    destroy: () => abort.abort(),
  }
}
