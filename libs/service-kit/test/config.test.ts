import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, env, parseConfig } from '../src/index.ts';
import { runFixture } from './helpers.ts';

const schema = z.object({
  PORT: env.port(8080),
  DATABASE_URL: env.url(),
  EVENTS_ENABLED: env.bool(true),
  LOG_LEVEL: env.logLevel(),
});

describe('parseConfig', () => {
  it('parses, coerces and applies defaults', () => {
    expect(
      parseConfig(schema, { DATABASE_URL: 'postgres://db/x', PORT: '3001', EVENTS_ENABLED: 'no' }),
    ).toEqual({
      PORT: 3001,
      DATABASE_URL: 'postgres://db/x',
      EVENTS_ENABLED: false,
      LOG_LEVEL: 'info',
    });
    expect(parseConfig(schema, { DATABASE_URL: 'postgres://db/x' }).EVENTS_ENABLED).toBe(true);
  });

  it('names the missing variable', () => {
    expect(() => parseConfig(schema, {})).toThrow(ConfigError);
    expect(() => parseConfig(schema, {})).toThrow(/DATABASE_URL/);
  });

  it('names every bad variable, and only those', () => {
    let message = '';
    try {
      parseConfig(schema, {
        DATABASE_URL: 'not a url',
        PORT: '70000',
        EVENTS_ENABLED: 'maybe',
        LOG_LEVEL: 'info',
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toMatch(/^ {2}DATABASE_URL: /m);
    expect(message).toMatch(/^ {2}PORT: /m);
    expect(message).toMatch(/^ {2}EVENTS_ENABLED: /m);
    expect(message).not.toMatch(/LOG_LEVEL/);
  });

  it('reads process.env by default', () => {
    const key = 'WB_TEST_ONLY_VAR';
    process.env[key] = 'x';
    try {
      expect(parseConfig(z.object({ [key]: z.string() }))).toEqual({ [key]: 'x' });
    } finally {
      delete process.env[key];
    }
  });
});

describe('loadConfig in a process entry', () => {
  it('prints the problem naming the variable and exits with status 1', async () => {
    const r = await runFixture('load-config.ts', { env: { DATABASE_URL: 'postgres://db/x', PORT: 'abc' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Invalid configuration:');
    expect(r.stderr).toMatch(/PORT: /);
    expect(r.stderr).toMatch(/JWKS_URL: /);
    expect(r.stderr).not.toMatch(/DATABASE_URL/);
    expect(r.stdout).not.toContain('loaded');
  });

  it('returns the config and lets the process go on when it is valid', async () => {
    const r = await runFixture('load-config.ts', {
      env: { DATABASE_URL: 'postgres://db/x', JWKS_URL: 'http://auth/internal/jwks' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'loaded {"PORT":8080,"DATABASE_URL":"postgres://db/x","JWKS_URL":"http://auth/internal/jwks"}',
    );
  });
});
