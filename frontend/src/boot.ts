/**
 * The entry: a few hundred bytes that ask for the app and for the page of the address at once, so the
 * page's chunks (and their shared dependencies) download while the app's JavaScript loads, instead of
 * after it has run. The app is asked for first: over HTTP/1.1's six connections it is the one that must
 * arrive first (it starts auth and the page's API calls); the page is only drawn after that. The page
 * module is cached by the module loader; React.lazy gets the same one.
 */
import { pageFor, pageModules } from './app/pages.ts';

void import('./main.tsx');
const first = pageFor(window.location.pathname);
if (first) void pageModules[first]();
