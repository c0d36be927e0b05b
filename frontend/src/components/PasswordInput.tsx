import { useState, type InputHTMLAttributes } from 'react';
import { EyeIcon, EyeOffIcon } from 'lucide-react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { invalid?: boolean };

/** A password field with a show/hide toggle. */
export function PasswordInput({ invalid, className, ...rest }: Props) {
  const [visible, setVisible] = useState(false);
  return (
    <div className={`input-group${invalid ? ' is-invalid' : ''}`}>
      <input
        {...rest}
        type={visible ? 'text' : 'password'}
        className={`input${className ? ` ${className}` : ''}`}
        aria-invalid={invalid || undefined}
      />
      <button
        type="button"
        className="input-group__toggle"
        onClick={() => setVisible((v) => !v)}
        aria-label={visible ? 'Скрыть пароль' : 'Показать пароль'}
        aria-pressed={visible}
        title={visible ? 'Скрыть пароль' : 'Показать пароль'}
        data-testid={rest.id ? `${rest.id}-toggle` : undefined}
      >
        {visible ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
      </button>
    </div>
  );
}
