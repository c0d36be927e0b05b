/** The login form's resolver, in a chunk of its own (see lib/lazyResolver.ts). */
import { zodResolver } from '@hookform/resolvers/zod';
import { LoginForm } from './forms.ts';

export const loginResolver = zodResolver(LoginForm);
