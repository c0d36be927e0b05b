import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AuthStatus, User } from './types.ts';

export interface AuthState {
  status: AuthStatus;
  user: User | null;
}

const initialState: AuthState = { status: 'loading', user: null };

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    signedIn(state, action: PayloadAction<User>) {
      state.status = 'authenticated';
      state.user = action.payload;
    },
    userUpdated(state, action: PayloadAction<User>) {
      if (state.user) state.user = action.payload;
    },
    signedOut(state) {
      state.status = 'unauthenticated';
      state.user = null;
    },
  },
  selectors: {
    selectAuthStatus: (s) => s.status,
    selectUser: (s) => s.user,
    selectIsAuthenticated: (s) => s.status === 'authenticated' && s.user !== null,
    selectIsAdmin: (s) => s.user?.isAdmin === true,
  },
});

export const { signedIn, userUpdated, signedOut } = authSlice.actions;
export const { selectAuthStatus, selectUser, selectIsAuthenticated, selectIsAdmin } = authSlice.selectors;
