/**
 * Under a Content Security Policy without 'unsafe-eval', zod must not try to compile its object
 * parsers with `Function`: the attempt itself is reported as a violation. The browser calls this
 * once, before any schema parses; the server keeps the compiled parsers.
 */
import { config } from 'zod/v4/core';

export function parseWithoutEval(): void {
  config({ jitless: true });
}
