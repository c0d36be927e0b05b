import { useId } from 'react';
import { Link } from 'react-router-dom';

export const PRODUCT_NAME = 'Холст';

export function LogoMark({ size = 32 }: { size?: number }) {
  // Each mark owns its gradient: a shared id breaks when the defining copy is display:none.
  const gid = `wb-logo-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <defs>
        <linearGradient id={gid} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#8b5cf6" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill={`url(#${gid})`} />
      <path
        d="M8.5 21.5c3-6 6.5-10 9-10s1.5 5-1 7.5 5.5-3 7-1"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="logo" aria-label={PRODUCT_NAME}>
      <LogoMark />
      <span className="logo__text">{PRODUCT_NAME}</span>
    </Link>
  );
}
