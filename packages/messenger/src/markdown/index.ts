// The article renderer: a module of its own, which the help view imports when an article opens,
// so a page that never opens one never loads the Markdown parser.
export { renderMarkdown, type MarkdownStrings } from './render.js'
