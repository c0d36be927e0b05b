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

describe('env helpers every service config is written with', () => {
  it('int and number: coerced, defaulted, range-checked', () => {
    const s = z.object({ N: env.int(5, { min: 1, max: 10 }), F: env.number(0.5, { min: 0 }) });
    expect(parseConfig(s, {})).toEqual({ N: 5, F: 0.5 });
    expect(parseConfig(s, { N: '7', F: '2.5' })).toEqual({ N: 7, F: 2.5 });
    expect(() => parseConfig(s, { N: '11' })).toThrow(/N:/);
    expect(() => parseConfig(s, { N: '1.5' })).toThrow(/N:/);
    expect(() => parseConfig(s, { F: '-1' })).toThrow(/F:/);
  });

  it('optionalUrl and optionalPort: unset or blank is "not configured", anything else must be valid', () => {
    const s = z.object({ U: env.optionalUrl(), P: env.optionalPort() });
    expect(parseConfig(s, {})).toEqual({ U: undefined, P: undefined });
    expect(parseConfig(s, { U: ' ', P: '' })).toEqual({ U: undefined, P: undefined });
    expect(parseConfig(s, { U: ' http://x:1 ', P: '9100' })).toEqual({ U: 'http://x:1', P: 9100 });
    expect(() => parseConfig(s, { U: 'nope' })).toThrow(/U:/);
    expect(() => parseConfig(s, { P: 'abc' })).toThrow(/P:/);
    expect(() => parseConfig(s, { P: '70000' })).toThrow(/P:/);
  });

  it('optionalSecret keeps what was written; optionalString trims', () => {
    const s = z.object({ S: env.optionalSecret(), T: env.optionalString() });
    expect(parseConfig(s, { S: ' pass word ', T: ' x ' })).toEqual({ S: ' pass word ', T: 'x' });
    expect(parseConfig(s, { S: '  ', T: '' })).toEqual({ S: undefined, T: undefined });
  });
});
