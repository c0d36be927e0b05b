import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a stand-in received, for the assertions. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface StandIn {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

async function serve(handler: (req: Received) => { status: number; body: unknown }): Promise<StandIn & { server: Server }> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const r: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    received.push(r);
    const { status, body } = handler(r);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url, received, close: () => new Promise((r) => server.close(() => r())) };
}

export interface YooKassaStandIn extends StandIn {
  /** Sets the status the API reports for a payment (what "the provider confirms"). */
  setStatus(id: string, status: 'pending' | 'succeeded' | 'canceled' | 'waiting_for_capture'): void;
  /** Changes the amount the API reports (a tampered payment). */
  setAmount(id: string, value: string): void;
}

/**
 * YooKassa's API shape, as far as billing uses it: POST /payments (Basic auth, Idempotence-Key,
 * same key → same payment) and GET /payments/{id}. Unknown ids answer 404 like the real API.
 */
export async function startYooKassaStandIn(shopId: string, secretKey: string): Promise<YooKassaStandIn> {
  const payments = new Map<string, { id: string; status: string; paid: boolean; amount: { value: string; currency: string }; metadata: unknown }>();
  const byKey = new Map<string, string>();
  const expectedAuth = `Basic ${Buffer.from(`${shopId}:${secretKey}`).toString('base64')}`;
  const s = await serve((req) => {
    if (req.headers.authorization !== expectedAuth) return { status: 401, body: { type: 'error', code: 'invalid_credentials' } };
    if (req.method === 'POST' && req.path === '/payments') {
      const key = String(req.headers['idempotence-key'] ?? '');
      if (!key) return { status: 400, body: { type: 'error', code: 'invalid_request', description: 'Idempotence-Key required' } };
      const existing = byKey.get(key);
      const body = JSON.parse(req.body);
      const id = existing ?? `2c${randomUUID().slice(2)}`;
      if (!existing) {
        payments.set(id, { id, status: 'pending', paid: false, amount: body.amount, metadata: body.metadata });
        byKey.set(key, id);
      }
      const p = payments.get(id)!;
      return {
        status: 200,
        body: { ...p, confirmation: { type: 'redirect', confirmation_url: `https://yoomoney.example/checkout/payments/v2/contract?orderId=${id}` } },
      };
    }
    const m = /^\/payments\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && m) {
      const p = payments.get(decodeURIComponent(m[1]!));
      return p ? { status: 200, body: p } : { status: 404, body: { type: 'error', code: 'not_found' } };
    }
    return { status: 404, body: { type: 'error', code: 'not_found' } };
  });
  return {
    url: s.url,
    received: s.received,
    close: s.close,
    setStatus(id, status) {
      const p = payments.get(id)!;
      p.status = status;
      p.paid = status === 'succeeded' || status === 'waiting_for_capture';
    },
    setAmount(id, value) {
      payments.get(id)!.amount.value = value;
    },
  };
}

/** Stripe's POST /v1/checkout/sessions (Bearer key, form-encoded); webhooks are signed by the test itself. */
export async function startStripeStandIn(secretKey: string): Promise<StandIn> {
  return serve((req) => {
    if (req.headers.authorization !== `Bearer ${secretKey}`) return { status: 401, body: { error: { type: 'invalid_request_error' } } };
    if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
      const form = new URLSearchParams(req.body);
      const id = `cs_test_${randomUUID().replace(/-/g, '')}`;
      return {
        status: 200,
        body: {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.example/c/pay/${id}`,
          client_reference_id: form.get('client_reference_id'),
          amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
          currency: form.get('line_items[0][price_data][currency]'),
        },
      };
    }
    return { status: 404, body: { error: { type: 'invalid_request_error' } } };
  });
}
