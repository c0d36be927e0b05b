/**
 * The dashboard's dialogs, confirmation (promise based), "⋯" menus and switches, as thin adapters over
 * the shared UI layer (src/components/ui). The colour picker is ColorChoice.tsx.
 */
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import {
  Button,
  ConfirmDialog,
  Dialog,
  DropdownMenu as MenuRoot,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
  Switch as UiSwitch,
} from '../../components/ui/index.ts';
import shared from './shared.module.css';
import { OWN } from './texts.ts';
import styles from './ui.module.css';

// ---------- Modal ----------

interface ModalProps {
  title: ReactNode;
  subtitle?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  testId?: string;
}

/** A dashboard dialog: the shared Dialog (focus trap, focus return, Escape for the top one only). */
export function Modal(props: ModalProps) {
  return <Dialog {...props} />;
}

interface ModalActionsProps {
  onCancel: () => void;
  label: string;
  disabled: boolean;
  testId: string;
  /** Without it the primary button submits the dialog's form. */
  onConfirm?: () => void;
}

/** Cancel and the primary action, the buttons that end a dialog. */
export function ModalActions({ onCancel, label, disabled, testId, onConfirm }: ModalActionsProps) {
  return (
    <>
      <Button variant="ghost" size="sm" onClick={onCancel}>
        {OWN.cancel}
      </Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        variant="primary"
        size="sm"
        onClick={onConfirm}
        disabled={disabled}
        data-testid={testId}
      >
        {label}
      </Button>
    </>
  );
}

// ---------- Confirmation ----------

export interface ConfirmOptions {
  title: string;
  /** The question itself (the spec's text where it gives one), test id `confirm-text`. */
  message: string;
  /** A second paragraph naming what else the action touches, test id `confirm-detail`. */
  detail?: string;
  confirmLabel?: string;
  danger?: boolean;
}

type ConfirmFn = (opts: ConfirmOptions) => Promise<boolean>;
const ConfirmContext = createContext<ConfirmFn>(() => Promise.resolve(false));

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
              <p className={styles.confirmText} data-testid="confirm-text">
                {state.message}
              </p>
              {state.detail ? (
                <p className={styles.confirmText} data-testid="confirm-detail">
                  {state.detail}
                </p>
              ) : null}
            </>
          }
          confirmLabel={state.confirmLabel ?? OWN.delete}
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

// ---------- Dropdown menu ----------

export interface MenuItem {
  key: string;
  label: string;
  icon?: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  onSelect: () => void;
}

/** A "⋯" button opening a menu of `items` (each with test id `menu-<key>`). */
export function DropdownMenu({
  items,
  label,
  testId,
  className = '',
}: {
  items: MenuItem[];
  label: string;
  testId?: string;
  className?: string;
}) {
  return (
    <MenuRoot modal={false}>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          className={`${shared.iconBtn} ${className}`}
          aria-label={label}
          title={label}
          onClick={(e) => e.stopPropagation()}
          data-testid={testId}
        >
          <MoreDots />
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent onClick={(e) => e.stopPropagation()} onPointerDown={(e) => e.stopPropagation()}>
        {items.map((item) => (
          <DropdownMenuItem
            key={item.key}
            icon={item.icon}
            danger={item.danger}
            disabled={item.disabled}
            onSelect={item.onSelect}
            data-testid={`menu-${item.key}`}
          >
            <span>{item.label}</span>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </MenuRoot>
  );
}

const MoreDots = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <circle cx="5" cy="12" r="1.8" fill="currentColor" />
    <circle cx="12" cy="12" r="1.8" fill="currentColor" />
    <circle cx="19" cy="12" r="1.8" fill="currentColor" />
  </svg>
);

// ---------- Switch ----------

export function Switch({
  checked,
  onChange,
  disabled,
  label,
  testId,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  disabled?: boolean;
  label: string;
  testId?: string;
}) {
  return (
    <UiSwitch checked={checked} onCheckedChange={onChange} disabled={disabled} aria-label={label} testId={testId} />
  );
}
