export * from './users'
export * from './library'
export * from './listening'
export * from './site'
