// Shapes the REST adapter and the browser agree on (CONTRACT §3).
export type ApiSuccess<T> = { success: true; data: T }
export type ApiFailure = { success: false; error: string }
export type ApiEnvelope<T> = ApiSuccess<T> | ApiFailure

export type PublicUser = { id: string; username: string; email: string; isAdmin: boolean; createdAt: string }
