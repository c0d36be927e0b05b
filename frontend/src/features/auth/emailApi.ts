/**
 * The e-mail link calls of the auth service (password reset, e-mail verification): bodies and
 * answers as @wb/contracts defines them.
 */
import type {
  MessageAnswer,
  PasswordResetConfirmRequest,
  PasswordResetRequest,
  VerifyEmailRequest,
} from '@wb/contracts';
import { baseApi } from '../../api/baseApi.ts';

export const emailApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    requestPasswordReset: build.mutation<MessageAnswer, PasswordResetRequest>({
      query: (body) => ({ url: '/auth/password-reset/request', method: 'POST', body }),
    }),
    confirmPasswordReset: build.mutation<MessageAnswer, PasswordResetConfirmRequest>({
      query: (body) => ({ url: '/auth/password-reset/confirm', method: 'POST', body }),
    }),
    verifyEmail: build.mutation<MessageAnswer, VerifyEmailRequest>({
      query: (body) => ({ url: '/auth/verify-email', method: 'POST', body }),
    }),
    resendVerification: build.mutation<MessageAnswer, void>({
      query: () => ({ url: '/auth/verify-email/resend', method: 'POST', body: {} }),
    }),
  }),
});

export const {
  useRequestPasswordResetMutation,
  useConfirmPasswordResetMutation,
  useVerifyEmailMutation,
  useResendVerificationMutation,
} = emailApi;
