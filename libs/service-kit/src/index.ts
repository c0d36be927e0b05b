import './request-types.ts';
export * from './config.ts';
export * from './logger.ts';
export * from './errors.ts';
export * from './auth.ts';
export * from './metrics.ts';
export * from './app.ts';
export * from './server.ts';
export * from './tracing.ts';
