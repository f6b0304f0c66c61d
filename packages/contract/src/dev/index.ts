// Whether this build speaks in development sentences (CONTRIBUTING.md, "Error messages"): the
// default of `@tandem/contract/dev`. Bundlers that know the `development` and `production` export
// conditions (Vite, webpack and Next, Rollup, esbuild given `conditions`) take ./development.ts or
// ./production.ts instead: a literal they inline at each use, so a production bundle drops every
// sentence. Here `process` is read only if there is one: Node reads NODE_ENV; a bundler that
// defines `process.env.NODE_ENV` folds this line to a literal too (the ternary is what lets esbuild
// inline it across modules); a page without a bundler has no `process` and gets the short
// production messages, never a ReferenceError.
export const DEV: boolean = typeof process === 'object' && process.env.NODE_ENV !== 'production' ? true : false
