import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '../app/store.ts';
import { logout } from '../features/auth/session.ts';
import type { User } from '../features/auth/types.ts';
import { ChevronDownIcon, LogOutIcon, SettingsIcon } from 'lucide-react';
import { Button, DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from './ui/index.ts';
import styles from './UserMenu.module.css';

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

/**
 * Name, email, Settings and Logout (spec §2, dashboard header). A Radix menu: arrow keys, Home/End,
 * Escape back to the trigger, and a collision-aware portal, so it stays on screen at 375 px.
 */
export function UserMenu({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState(false);

  const onLogout = async () => {
    setBusy(true);
    await logout(dispatch);
  };

  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="plain" className="user-menu__trigger" data-testid="user-menu-trigger">
          <Avatar name={user.name} />
          <span className={`user-menu__name ${styles.name}`}>{user.name}</span>
          <ChevronDownIcon size={16} aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="user-menu__panel">
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
        <DropdownMenuItem asChild>
          <Link to="/settings">
            <SettingsIcon size={18} aria-hidden="true" />
            Настройки
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem
          danger
          icon={<LogOutIcon size={18} aria-hidden="true" />}
          onSelect={() => void onLogout()}
          disabled={busy}
          data-testid="logout-button"
        >
          Выйти
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
