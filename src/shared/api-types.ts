// The signed-in user as the API answers it (login, session) and the browser keeps it.
export type PublicUser = { id: string; username: string; email: string; isAdmin: boolean; createdAt: string }
