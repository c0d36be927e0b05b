import { describe, expect, it } from 'vitest';
import { ExportRefused, fileNameFrom, requestExport } from '../../src/features/board/export/exportApi.ts';
import { exportTexts } from '../../src/features/board/export/texts.ts';

describe('board export texts', () => {
  it('PNG uses the §8 sentences as written; SVG and PDF the same with their name', () => {
    expect(exportTexts('png')).toMatchObject({
      selectArea: 'Выделите область для экспорта PNG',
      success: 'PNG экспортирован успешно!',
      failure: 'Ошибка при экспорте PNG',
      refused: 'Ошибка экспорта',
    });
    expect(exportTexts('pdf').success).toBe('PDF экспортирован успешно!');
    expect(exportTexts('svg').selectArea).toBe('Выделите область для экспорта SVG');
  });
});

describe('fileNameFrom', () => {
  it('prefers the UTF-8 name, falls back to the quoted or bare one', () => {
    expect(
      fileNameFrom(
        `attachment; filename="2026_____.png"; filename*=UTF-8''2026_%D0%94%D0%BE%D1%81%D0%BA%D0%B0.png`,
      ),
    ).toBe('2026_Доска.png');
    expect(fileNameFrom('attachment; filename="a b.svg"')).toBe('a b.svg');
    expect(fileNameFrom('attachment; filename=plain.pdf')).toBe('plain.pdf');
    expect(fileNameFrom(`attachment; filename="x.png"; filename*=UTF-8''%E0%A4%A`)).toBe('x.png');
    expect(fileNameFrom(null)).toBeNull();
  });
});

describe('requestExport', () => {
  const area = { x: 0, y: 0, width: 100, height: 50 };

  it('posts the board and area with the Bearer token and returns the blob and server name', async () => {
    let seen: { url: string; init: RequestInit } | undefined;
    const fetchImpl = (async (url: string, init: RequestInit) => {
      seen = { url, init };
      return new Response(new Uint8Array([1, 2, 3]), {
        status: 200,
        headers: {
          'content-type': 'image/png',
          'content-disposition': `attachment; filename*=UTF-8''%D0%94.png`,
        },
      });
    }) as unknown as typeof fetch;
    const out = await requestExport({ format: 'png', boardId: 'b1', area, accessToken: 'tok', fetchImpl });
    expect(seen!.url).toBe('/api/export/png');
    expect(JSON.parse(seen!.init.body as string)).toEqual({ boardId: 'b1', area });
    expect((seen!.init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect(out.fileName).toBe('Д.png');
    expect(out.blob.size).toBe(3);
  });

  it('a non-OK answer is a refusal (the "Ошибка экспорта" toast)', async () => {
    const fetchImpl = (async () =>
      new Response('{"code":"OWNER_REQUIRED"}', { status: 403 })) as unknown as typeof fetch;
    await expect(
      requestExport({ format: 'pdf', boardId: 'b1', area, accessToken: null, fetchImpl }),
    ).rejects.toBeInstanceOf(ExportRefused);
  });
});
