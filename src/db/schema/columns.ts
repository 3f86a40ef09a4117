// Column defaults shared by every table.
export const newId = () => crypto.randomUUID()
export const now = () => new Date()
