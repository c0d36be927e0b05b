/** The user as the auth service returns it (see PublicUser in @wb/contracts). */
export interface User {
  id: string;
  name: string;
  email: string;
  isAdmin: boolean;
  plan_name: string | null;
  boards_count: number;
  created_at: string;
  settings: Record<string, unknown>;
}

export interface AuthResponse {
  user: User;
  accessToken: string;
  refreshToken: string;
}

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';
