/** The user and the auth answer as the auth service defines them (inferred from the schemas of @wb/contracts). */
export type { PublicUser as User, AuthAnswer as AuthResponse, UserAnswer } from '@wb/contracts';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';
