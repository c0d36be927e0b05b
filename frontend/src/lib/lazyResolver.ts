import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver whose schema module is fetched on first use instead of with the page:
 * zod and the contract schemas (~27 kB brotli) stay off the first load of the pages that only need
 * them once the visitor types (issue 36 item 6). `preload()` starts the fetch early (the form's
 * first keystroke), so the first submit rarely waits for it. A failed fetch is tried again next time.
 */
export function lazyResolver<V extends FieldValues, C, O>(
  load: () => Promise<Resolver<V, C, O>>,
): Resolver<V, C, O> & { preload(): void } {
  let pending: Promise<Resolver<V, C, O>> | null = null;
  const get = () =>
    (pending ??= load().catch((err: unknown) => {
      pending = null;
      throw err;
    }));
  const resolver: Resolver<V, C, O> = async (values, context, options) => (await get())(values, context, options);
  return Object.assign(resolver, { preload: () => void get().catch(() => undefined) });
}
