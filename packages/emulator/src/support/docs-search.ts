// Article search: every word of the query must occur in the title, keywords or text; a word
// in the title weighs most. Ties keep a stable order (title, then id).
import { DEFAULTS } from './defaults.js'
import type { Article, ArticleSummary } from './types.js'

export function wordsOf(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}

export function searchArticles(articles: readonly Article[], words: readonly string[]): Article[] {
  if (words.length === 0) return []
  const scored: { article: Article; score: number }[] = []
  for (const article of articles) {
    const title = article.title.toLowerCase()
    const text = article.text.toLowerCase()
    let score = 0
    for (const word of words) {
      const s =
        (title.includes(word) ? 3 : 0) +
        (article.keywords.some((k) => k.startsWith(word)) ? 2 : 0) +
        (text.includes(word) ? 1 : 0)
      if (s === 0) {
        score = 0
        break
      }
      score += s
    }
    if (score > 0) scored.push({ article, score })
  }
  scored.sort((a, b) => b.score - a.score || byTitle(a.article, b.article))
  return scored.map((s) => s.article)
}

export function byTitle(a: Article, b: Article): number {
  return a.title < b.title ? -1 : a.title > b.title ? 1 : a.id < b.id ? -1 : 1
}

export function summarize({ text, ...rest }: Article): ArticleSummary {
  const flat = text.replace(/\s+/g, ' ').trim()
  const max = DEFAULTS.excerptLength
  return { ...rest, excerpt: flat.length > max ? `${flat.slice(0, max - 1)}…` : flat }
}
