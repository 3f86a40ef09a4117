export * from './auth'
export * from './contact'
export * from './folder'
export * from './remote'
