import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '../app/store.ts';
import { logout } from '../features/auth/session.ts';
import type { User } from '../features/auth/types.ts';
import { ChevronDownIcon, LogOutIcon, SettingsIcon } from 'lucide-react';

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? parts[0][0] + parts[1][0] : (parts[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}

export function Avatar({ name, size = 32 }: { name: string; size?: number }) {
  return (
    <span className="avatar" style={{ width: size, height: size, fontSize: size * 0.4 }} aria-hidden="true">
      {initials(name)}
    </span>
  );
}

/** Name, email, Settings and Logout (spec §2, dashboard header). */
export function UserMenu({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const onLogout = async () => {
    setBusy(true);
    setOpen(false);
    await logout(dispatch);
  };

  return (
    <div className="user-menu" ref={ref}>
      <button
        type="button"
        className="user-menu__trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
        data-testid="user-menu-trigger"
      >
        <Avatar name={user.name} />
        <span className="user-menu__name">{user.name}</span>
        <ChevronDownIcon size={16} />
      </button>
      {open ? (
        <div className="user-menu__panel" role="menu" id={menuId}>
          <div className="user-menu__who">
            <Avatar name={user.name} size={40} />
            <div>
              <div className="user-menu__who-name" data-testid="user-menu-name">
                {user.name}
              </div>
              <div className="user-menu__who-email" data-testid="user-menu-email">
                {user.email}
              </div>
            </div>
          </div>
          <Link to="/settings" role="menuitem" className="user-menu__item" onClick={() => setOpen(false)}>
            <SettingsIcon size={18} />
            Настройки
          </Link>
          <button
            type="button"
            role="menuitem"
            className="user-menu__item user-menu__item--danger"
            onClick={onLogout}
            disabled={busy}
            data-testid="logout-button"
          >
            <LogOutIcon size={18} />
            Выйти
          </button>
        </div>
      ) : null}
    </div>
  );
}
