export * from './bindings.js';
export * from './errors.js';
export * from './memory.js';
export * from './principals.js';
export * from './runs.js';
export * from './state.js';
export * from './target.js';
export * from './tracing.js';
