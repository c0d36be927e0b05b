import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { DialogMessage } from './Dialog.tsx';

export interface ConfirmOptions {
  title: string;
  /** The question itself (the spec's text where it gives one), test id `confirm-text`. */
  message: string;
  /** A second paragraph naming what else the action touches, test id `confirm-detail`. */
  detail?: string;
  confirmLabel: string;
  /** Destructive unless said otherwise: the confirm button is red. */
  danger?: boolean;
}

type ConfirmFn = (opts: ConfirmOptions) => Promise<boolean>;
const ConfirmContext = createContext<ConfirmFn>(() => Promise.resolve(false));

/**
 * `const ok = await confirm({...})` anywhere below it: one ConfirmDialog (test ids `confirm-dialog`,
 * `confirm-ok`), for handlers that ask in the middle of their work.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<(ConfirmOptions & { resolve: (v: boolean) => void }) | null>(null);
  const confirm = useCallback<ConfirmFn>(
    (opts) => new Promise<boolean>((resolve) => setState({ ...opts, resolve })),
    [],
  );
  const done = (v: boolean) => {
    state?.resolve(v);
    setState(null);
  };
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {state ? (
        <ConfirmDialog
          title={state.title}
          message={
            <>
              <DialogMessage testId="confirm-text">{state.message}</DialogMessage>
              {state.detail ? <DialogMessage testId="confirm-detail">{state.detail}</DialogMessage> : null}
            </>
          }
          confirmLabel={state.confirmLabel}
          danger={state.danger !== false}
          onConfirm={() => done(true)}
          onClose={() => done(false)}
          testId="confirm-dialog"
          confirmTestId="confirm-ok"
        />
      ) : null}
    </ConfirmContext.Provider>
  );
}

export const useConfirm = () => useContext(ConfirmContext);
