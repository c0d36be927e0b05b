import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../app/store.ts';
import { MenuIcon, ShieldCheckIcon, UsersIcon, XIcon, ZapIcon } from 'lucide-react';
import { Logo, PRODUCT_NAME } from '../components/Logo.tsx';
import { PlansGrid } from '../components/PlansGrid.tsx';
import { selectUser } from '../features/auth/authSlice.ts';
import { buttonClass, IconButton } from '../components/ui/Button.tsx';

const FEATURES = [
  {
    icon: <UsersIcon size={24} />,
    title: 'Совместная работа в реальном времени',
    text: 'Курсоры участников, мгновенные изменения и общие доски — вся команда видит одно и то же в один момент.',
    tone: 'indigo',
  },
  {
    icon: <ZapIcon size={24} />,
    title: 'Быстрая и надёжная синхронизация',
    text: 'Изменения сохраняются автоматически и доходят до всех за доли секунды, даже после работы без сети.',
    tone: 'amber',
  },
  {
    icon: <ShieldCheckIcon size={24} />,
    title: 'Безопасность',
    text: 'Управление доступом для каждой доски и защищённые ссылки: просмотр, гостевой доступ или редактирование.',
    tone: 'emerald',
  },
];

function LandingHeader() {
  const user = useAppSelector(selectUser);
  const [open, setOpen] = useState(false);
  const [scrolled, setScrolled] = useState(false);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > 8);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  const close = () => setOpen(false);

  return (
    <header className={`site-header${scrolled ? ' is-scrolled' : ''}${open ? ' is-open' : ''}`}>
      <div className="site-header__inner container">
        <Logo />
        <nav className="site-nav" id="site-nav" aria-label="Основная навигация">
          <a href="#features" onClick={close}>
            Возможности
          </a>
          <a href="#pricing" onClick={close}>
            Тарифы
          </a>
          {user ? (
            <Link to="/dashboard" className={`${buttonClass({ variant: 'primary', size: 'sm' })} site-nav__cta`} onClick={close}>
              Мои доски
            </Link>
          ) : (
            <>
              <Link to="/login" className="site-nav__login" onClick={close} data-testid="landing-login">
                Войти
              </Link>
              <Link to="/register" className={`${buttonClass({ variant: 'primary', size: 'sm' })} site-nav__cta`} onClick={close}>
                Начать бесплатно
              </Link>
            </>
          )}
        </nav>
        <IconButton
          plain
          className="site-header__toggle"
          label={open ? 'Закрыть меню' : 'Открыть меню'}
          aria-expanded={open}
          aria-controls="site-nav"
          onClick={() => setOpen((v) => !v)}
          data-testid="mobile-menu-toggle"
        >
          {open ? <XIcon size={20} /> : <MenuIcon size={20} />}
        </IconButton>
      </div>
    </header>
  );
}

function HeroBoard() {
  return (
    <div className="hero-board" aria-hidden="true">
      <div className="hero-board__toolbar">
        <span />
        <span />
        <span />
      </div>
      <div className="hero-board__canvas">
        <div className="sticky sticky--yellow hb-1">Цели квартала</div>
        <div className="sticky sticky--pink hb-2">Идеи для запуска</div>
        <div className="sticky sticky--blue hb-3">Исследование</div>
        <div className="sticky sticky--green hb-4">Готово ✓</div>
        <div className="hb-shape" />
        <svg className="hb-arrow" viewBox="0 0 300 120">
          <path
            d="M10 100 C 90 10, 200 10, 290 70"
            fill="none"
            stroke="currentColor"
            strokeWidth="3"
            strokeLinecap="round"
          />
          <path
            d="M278 58 L290 70 L273 74"
            fill="none"
            stroke="currentColor"
            strokeWidth="3"
            strokeLinecap="round"
          />
        </svg>
        <span className="cursor cursor--a hb-c1">Анна</span>
        <span className="cursor cursor--b hb-c2">Игорь</span>
        <span className="cursor cursor--c hb-c3">Мария</span>
      </div>
    </div>
  );
}

export function LandingPage() {
  const user = useAppSelector(selectUser);
  const primaryTo = user ? '/dashboard' : '/register';
  const year = new Date().getFullYear();

  return (
    <div className="landing">
      <LandingHeader />
      <main>
        <section className="hero">
          <div className="container hero__inner">
            <div className="hero__copy">
              <span className="eyebrow">Онлайн-доска для команд</span>
              <h1 className="hero__title">
                Думайте вместе. <span className="text-gradient">На одной доске.</span>
              </h1>
              <p className="hero__lead">
                {PRODUCT_NAME} — бесконечный холст для мозговых штурмов, планирования и ретроспектив. Стикеры,
                фигуры, связи и живые курсоры всей команды.
              </p>
              <div className="hero__actions">
                <Link to={primaryTo} className={buttonClass({ variant: 'primary', size: 'lg' })} data-testid="hero-cta">
                  {user ? 'Перейти к доскам' : 'Начать бесплатно'}
                </Link>
                <a href="#features" className={buttonClass({ variant: 'ghost', size: 'lg' })}>
                  Узнать больше
                </a>
              </div>
              <p className="hero__note">Без карты. Бесплатный тариф навсегда.</p>
            </div>
            <HeroBoard />
          </div>
        </section>

        <section className="section" id="features" aria-labelledby="features-title">
          <div className="container">
            <div className="section__head">
              <span className="eyebrow">Возможности</span>
              <h2 id="features-title" className="section__title">
                Всё, что нужно для совместной работы
              </h2>
            </div>
            <div className="features">
              {FEATURES.map((f) => (
                <article key={f.title} className={`feature feature--${f.tone}`} data-testid="feature-block">
                  <div className="feature__icon">{f.icon}</div>
                  <h3>{f.title}</h3>
                  <p>{f.text}</p>
                </article>
              ))}
            </div>
          </div>
        </section>

        <section className="section section--muted" id="pricing" aria-labelledby="pricing-title">
          <div className="container">
            <div className="section__head">
              <span className="eyebrow">Тарифы</span>
              <h2 id="pricing-title" className="section__title">
                Простые и понятные тарифы
              </h2>
              <p className="section__lead">
                Без ограничений на число участников доски. Совместная работа, доступ по ссылке и
                автосохранение — в каждом тарифе.
              </p>
            </div>
            <PlansGrid
              fallback={
                <div className="plans-fallback" data-testid="plans-fallback">
                  <p>Начните бесплатно — перейти на расширенный тариф можно в любой момент.</p>
                  <Link to="/pricing" className={buttonClass({ variant: 'secondary' })}>
                    Подробнее о тарифах
                  </Link>
                </div>
              }
            />
          </div>
        </section>

        <section className="section">
          <div className="container">
            <div className="cta">
              <h2>Соберите команду на первой доске уже сегодня</h2>
              <p>Регистрация займёт меньше минуты.</p>
              <Link to={primaryTo} className={buttonClass({ variant: 'light', size: 'lg' })}>
                {user ? 'Открыть мои доски' : 'Создать аккаунт'}
              </Link>
            </div>
          </div>
        </section>
      </main>
      <footer className="site-footer">
        <div className="container site-footer__inner">
          <Logo />
          <nav className="site-footer__nav" aria-label="Ссылки в подвале">
            <a href="#features">Возможности</a>
            <Link to="/pricing">Тарифы</Link>
            <Link to="/login">Войти</Link>
          </nav>
          <p className="site-footer__copy">
            © {year} {PRODUCT_NAME}
          </p>
        </div>
      </footer>
    </div>
  );
}
