import { FAQ } from './texts.ts';

/** The pricing page's four questions, as native disclosure widgets (keyboard and screen readers for free). */
export function Faq() {
  return (
    <section className="faq" aria-labelledby="faq-title" data-testid="pricing-faq">
      <h2 id="faq-title" className="faq__title">
        Частые вопросы
      </h2>
      {FAQ.map((item) => (
        <details key={item.q} className="faq__item">
          <summary>{item.q}</summary>
          <p>{item.a}</p>
        </details>
      ))}
    </section>
  );
}
