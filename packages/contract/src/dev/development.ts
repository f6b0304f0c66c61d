// `@tandem/contract/dev` under the `development` export condition (Vite's dev server, webpack's
// development mode): the long sentences, whatever the page has or lacks.
export const DEV: boolean = true
