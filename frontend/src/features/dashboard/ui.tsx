/**
 * Small UI pieces of the dashboard: modal, confirmation dialog (promise based), dropdown menu,
 * switch and colour picker (palette + react-colorful for a custom colour).
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { HexColorInput, HexColorPicker } from 'react-colorful';
import { TAG_PALETTE } from '@wb/contracts';
import { CheckIcon, XIcon } from 'lucide-react';
import { OWN } from './texts.ts';

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

/** Open modals, newest last: only the top one reacts to Escape. */
const modalStack: object[] = [];

export function Modal({ title, subtitle, onClose, children, footer, size = 'md', testId }: ModalProps) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const panel = panelRef.current;
    const first = panel?.querySelector<HTMLElement>(
      '[data-autofocus], input:not([type=checkbox]), button.btn--primary',
    );
    (first ?? panel)?.focus();
    const me = {};
    modalStack.push(me);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && modalStack[modalStack.length - 1] === me) {
        e.stopPropagation();
        closeRef.current();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      modalStack.splice(modalStack.indexOf(me), 1);
      previous?.focus?.();
    };
  }, []);

  return createPortal(
    <div
      className="dash-modal__backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={panelRef}
        className={`dash-modal dash-modal--${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={testId}
      >
        <header className="dash-modal__header">
          <div className="dash-modal__heading">
            <h2 id={titleId}>{title}</h2>
            {subtitle ? <p>{subtitle}</p> : null}
          </div>
          <button type="button" className="icon-btn" onClick={onClose} aria-label={OWN.close}>
            <XIcon size={18} />
          </button>
        </header>
        <div className="dash-modal__body">{children}</div>
        {footer ? <footer className="dash-modal__footer">{footer}</footer> : null}
      </div>
    </div>,
    document.body,
  );
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
      <button type="button" className="btn btn--ghost btn--sm" onClick={onCancel}>
        {OWN.cancel}
      </button>
      <button
        type={onConfirm ? 'button' : 'submit'}
        className="btn btn--primary btn--sm"
        onClick={onConfirm}
        disabled={disabled}
        data-testid={testId}
      >
        {label}
      </button>
    </>
  );
}

// ---------- Confirmation ----------

export interface ConfirmOptions {
  title: string;
  message: string;
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
        <Modal
          title={state.title}
          onClose={() => done(false)}
          size="sm"
          testId="confirm-dialog"
          footer={
            <>
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => done(false)}>
                {OWN.cancel}
              </button>
              <button
                type="button"
                className={`btn btn--sm ${state.danger === false ? 'btn--primary' : 'btn--danger'}`}
                onClick={() => done(true)}
                data-testid="confirm-ok"
                data-autofocus
              >
                {state.confirmLabel ?? OWN.delete}
              </button>
            </>
          }
        >
          <p className="dash-confirm__text" data-testid="confirm-text">
            {state.message}
          </p>
        </Modal>
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

/** A "⋯" button opening a menu in a portal (so scrolling panels never clip it). */
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
  const [open, setOpen] = useState(false);
  const [pos, setPos] = useState<{ top: number; left: number } | null>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const id = useId();

  useLayoutEffect(() => {
    if (!open || !triggerRef.current) return;
    const r = triggerRef.current.getBoundingClientRect();
    const width = 244;
    const height = panelRef.current?.offsetHeight ?? items.length * 40 + 12;
    let left = r.right - width;
    if (left < 8) left = Math.min(r.left, window.innerWidth - width - 8);
    let top = r.bottom + 6;
    if (top + height > window.innerHeight - 8) top = Math.max(8, r.top - height - 6);
    setPos({ top, left });
  }, [open, items.length]);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLElement>('[role=menuitem]:not(:disabled)')?.focus();
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!panelRef.current?.contains(t) && !triggerRef.current?.contains(t)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        triggerRef.current?.focus();
      }
    };
    const onScroll = () => setOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    window.addEventListener('resize', onScroll);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('resize', onScroll);
    };
  }, [open]);

  const onPanelKey = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const els = [
      ...(panelRef.current?.querySelectorAll<HTMLElement>('[role=menuitem]:not(:disabled)') ?? []),
    ];
    const i = els.indexOf(document.activeElement as HTMLElement);
    const next = e.key === 'ArrowDown' ? (i + 1) % els.length : (i - 1 + els.length) % els.length;
    els[next]?.focus();
  };

  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className={`icon-btn ${className}`}
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={(e) => {
          e.stopPropagation();
          setOpen((v) => !v);
        }}
        data-testid={testId}
      >
        <MoreDots />
      </button>
      {open
        ? createPortal(
            <div
              ref={panelRef}
              id={id}
              role="menu"
              className="dash-menu"
              style={{ top: pos?.top ?? -9999, left: pos?.left ?? -9999 }}
              onKeyDown={onPanelKey}
              onClick={(e) => e.stopPropagation()}
              onPointerDown={(e) => e.stopPropagation()}
            >
              {items.map((item) => (
                <button
                  key={item.key}
                  type="button"
                  role="menuitem"
                  className={`dash-menu__item${item.danger ? ' dash-menu__item--danger' : ''}`}
                  disabled={item.disabled}
                  data-testid={`menu-${item.key}`}
                  onClick={() => {
                    setOpen(false);
                    item.onSelect();
                  }}
                >
                  {item.icon}
                  <span>{item.label}</span>
                </button>
              ))}
            </div>,
            document.body,
          )
        : null}
    </>
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
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      className={`switch${checked ? ' switch--on' : ''}`}
      onClick={() => onChange(!checked)}
      data-testid={testId}
    >
      <span className="switch__thumb" />
    </button>
  );
}

// ---------- Colour picker ----------

export function ColorChoice({
  value,
  onChange,
  testId,
}: {
  value: string;
  onChange: (c: string) => void;
  testId?: string;
}) {
  const upper = value.toUpperCase();
  const isPalette = (TAG_PALETTE as readonly string[]).includes(upper);
  const [custom, setCustom] = useState(!isPalette);
  return (
    <div className="color-choice" data-testid={testId}>
      <div className="color-choice__swatches" role="radiogroup">
        {TAG_PALETTE.map((c) => (
          <button
            key={c}
            type="button"
            role="radio"
            aria-checked={upper === c}
            aria-label={c}
            title={c}
            className={`swatch${upper === c ? ' swatch--active' : ''}`}
            style={{ background: c }}
            onClick={() => {
              onChange(c);
              setCustom(false);
            }}
          >
            {upper === c ? <CheckIcon size={14} /> : null}
          </button>
        ))}
        <button
          type="button"
          className={`swatch swatch--custom${!isPalette ? ' swatch--active' : ''}`}
          aria-label={OWN.customColor}
          aria-expanded={custom}
          title={OWN.customColor}
          style={!isPalette ? { background: value } : undefined}
          onClick={() => setCustom((v) => !v)}
        >
          {!isPalette ? <CheckIcon size={14} /> : null}
        </button>
      </div>
      {custom ? (
        <div className="color-choice__custom">
          <HexColorPicker color={value} onChange={(c) => onChange(c.toUpperCase())} />
          <label className="color-choice__hex">
            <span>HEX</span>
            <HexColorInput
              className="input input--sm"
              color={value}
              prefixed
              onChange={(c) => onChange(c.toUpperCase())}
              data-testid={testId ? `${testId}-hex` : undefined}
            />
          </label>
        </div>
      ) : null}
    </div>
  );
}
