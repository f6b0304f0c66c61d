// `@tandem/contract/dev` under the `production` export condition (Vite's and webpack's production
// builds): a literal `false`, inlined at each use, so every development sentence is dropped.
export const DEV: boolean = false
