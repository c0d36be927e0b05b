import { passwordStrength, strengthInfo } from '../features/auth/validation.ts';

/** The five-segment strength bar of the register form (spec §5). */
export function PasswordStrength({ password }: { password: string }) {
  const score = passwordStrength(password);
  const info = strengthInfo(score);
  if (!info) return null;
  return (
    <div className={`strength strength--${info.kind}`} data-testid="password-strength" data-score={score}>
      <div className="strength__bar" aria-hidden="true">
        {[1, 2, 3, 4, 5].map((i) => (
          <span key={i} className={`strength__seg${i <= score ? ' is-on' : ''}`} />
        ))}
      </div>
      <span className="strength__label">{info.label}</span>
    </div>
  );
}
