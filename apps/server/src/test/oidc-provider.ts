import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person known to the test provider: their login is their address. */
export interface ProviderPerson {
  email: string;
  name?: string;
  groups?: string[];
  emailVerified?: boolean;
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`: the issuer, whose discovery document is at `/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Makes this person known (or changes what the provider says of them). */
  addPerson(person: ProviderPerson): void;
  /**
   * Goes through the provider's own sign-in and consent pages (its development interactions) as a
   * browser would, over HTTP with its cookies, from the authorization address; the address the
   * provider sends the browser back to (the relying party's callback, with `code` and `state`).
   */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (the certified `oidc-provider`) on a free loopback port, for the
 * tests of single sign-on: one confidential client (`client_secret_basic`) whose redirect address
 * is `redirectUri`, PKCE required, and the `email`, `profile` and `groups` claims of its people.
 */
export async function startOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const people = new Map<string, ProviderPerson>();
  let handler: http.RequestListener = (_request, response) => response.writeHead(503).end();
  const server = http.createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'vigie';
  const clientSecret = 'secret-du-client-vigie-pour-les-tests';
  const provider = new Provider(issuer, {
    clients: [
      { client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], token_endpoint_auth_method: 'client_secret_basic' },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['clé des cookies du fournisseur de test'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    async findAccount(_context, id) {
      const person = people.get(id);
      if (!person) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: person.email,
          email_verified: person.emailVerified ?? true,
          name: person.name ?? person.email,
          groups: person.groups ?? [],
        }),
      };
    },
  });
  handler = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    addPerson(person) {
      people.set(person.email, person);
    },
    async signIn(authorizationUrl, login) {
      const cookies = new Map<string, string>();
      const remember = (response: Response) => {
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const at = pair?.indexOf('=') ?? -1;
          if (pair && at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
        }
      };
      const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      let url = new URL(authorizationUrl);
      for (let step = 0; step < 12; step++) {
        if (url.href.startsWith(redirectUri)) return url;
        const response = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader() } });
        remember(response);
        const location = response.headers.get('location');
        if (location) {
          url = new URL(location, url);
          continue;
        }
        const page = await response.text();
        // A sign-in or consent page: its form, sent as a person would fill it in.
        const prompt = /name="prompt" value="([a-z]+)"/.exec(page)?.[1];
        const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
        if (!prompt || !action) throw new Error(`Page inattendue du fournisseur (${response.status}) : ${page.slice(0, 300)}`);
        const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'peu importe' } : { prompt });
        const posted = await fetch(new URL(action, url), {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        });
        remember(posted);
        const next = posted.headers.get('location');
        if (!next) throw new Error(`Le fournisseur n’a pas redirigé après « ${prompt} » (${posted.status}).`);
        url = new URL(next, url);
      }
      throw new Error('Trop de redirections chez le fournisseur.');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
