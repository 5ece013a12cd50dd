import type { BodyOf, ResponseOf, Site, Task } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { call } from './api-client';

/**
 * `call` takes its types from the endpoint catalogue: these lines are checked by `npm run
 * typecheck` (each `@ts-expect-error` must meet an error, or the typecheck fails), never run.
 */
function wrongCalls() {
  // @ts-expect-error: a site's name is text.
  void call(endpoints.sites.create, { body: { name: 42 } });
  // @ts-expect-error: the body of a site is required.
  void call(endpoints.sites.create);
  // @ts-expect-error: the path's `:id` is required.
  void call(endpoints.sites.get);
  // @ts-expect-error: an answer is a list of items, not one word.
  void call(endpoints.tasks.complete, { params: { id: 'x' }, body: { answers: 'oui' } });
  // @ts-expect-error: a site has no `colour` to change.
  void call(endpoints.sites.update, { params: { id: 'x' }, body: { colour: 'bleu' } });
}

describe('call, typed from the catalogue', () => {
  it('answers with the types of the endpoint’s schemas, and takes its body’s', () => {
    expectTypeOf<ResponseOf<typeof endpoints.sites.list>>().toEqualTypeOf<{ sites: Site[] }>();
    expectTypeOf<ResponseOf<typeof endpoints.tasks.get>>().toEqualTypeOf<{ task: Task }>();
    expectTypeOf<BodyOf<typeof endpoints.sites.create>>().toHaveProperty('name').toEqualTypeOf<string>();
    // An endpoint that answers 204 resolves with nothing.
    expectTypeOf<ResponseOf<typeof endpoints.sites.remove>>().toEqualTypeOf<undefined>();
    expect(wrongCalls).toBeTypeOf('function');
  });
});
