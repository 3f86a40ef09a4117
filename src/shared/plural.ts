// Counts in words, the one way every screen says them: "1 listener", "2,481 plays".

/** `n` with its noun, singular for exactly one; `many` for irregular plurals. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
