// `process`, asked for by dev/index.ts only after `typeof process` says there is one, for the
// package's build: it builds without @types/node. The repo's typecheck has @types/node and leaves
// this file out (tsconfig.json).
declare const process: { env: { NODE_ENV?: string } }
