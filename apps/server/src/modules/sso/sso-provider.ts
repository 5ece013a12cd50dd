import * as oidc from 'openid-client';
import { resolveWebhookTarget, UnresolvedTargetError, WebhookTargetError } from '../notifications/webhook-sender.ts';

/** What the provider said of the person, read from the ID token and the userinfo endpoint. */
export interface SsoIdentity {
  email: string | null;
  /** False when the provider says the address is not verified; null when it says nothing. */
  emailVerified: boolean | null;
  name: string | null;
  groups: string[];
}

/** The provider cannot be used: its address is refused (private), unreachable, or its answer is invalid. */
export class SsoProviderError extends Error {
  constructor(
    message: string,
    readonly refused = false,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = 'SsoProviderError';
  }
}

const TIMEOUT_SECONDS = 10;
const SCOPE = 'openid email profile';

/**
 * The relying party of OpenID Connect (openid-client, docs/decisions/0050-openid-connect.md): the
 * provider is discovered at `issuer/.well-known/openid-configuration`, the client authenticates at
 * its token endpoint with `client_secret_basic`, and each request it makes (discovery, token,
 * keys, userinfo) is first checked like a webhook's address: loopback and private networks are
 * refused unless `allowPrivate` (`WEBHOOK_ALLOW_PRIVATE`).
 */
export function createSsoProvider(options: { allowPrivate: boolean }) {
  const checkedFetch: oidc.CustomFetch = async (url, init) => {
    await resolveWebhookTarget(new URL(url), options.allowPrivate);
    return fetch(url, init as RequestInit);
  };

  async function configure(settings: { issuer: string; clientId: string; clientSecret: string }): Promise<oidc.Configuration> {
    const issuer = new URL(settings.issuer);
    try {
      return await oidc.discovery(issuer, settings.clientId, undefined, oidc.ClientSecretBasic(settings.clientSecret), {
        [oidc.customFetch]: checkedFetch,
        timeout: TIMEOUT_SECONDS,
        ...(issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
      });
    } catch (error) {
      throw providerError(error, settings.issuer);
    }
  }

  return {
    /** Checks that the issuer may be reached (not private) and answers its discovery document; a French error otherwise. */
    async check(settings: { issuer: string; clientId: string; clientSecret: string }): Promise<void> {
      await configure(settings);
    },

    /** Where to send the browser: the authorization endpoint with state, nonce and PKCE (S256). */
    async authorizationUrl(
      settings: { issuer: string; clientId: string; clientSecret: string },
      request: { redirectUri: string; state: string; nonce: string; codeVerifier: string; loginHint: string },
    ): Promise<URL> {
      const config = await configure(settings);
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: request.redirectUri,
        response_type: 'code',
        scope: SCOPE,
        state: request.state,
        nonce: request.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
        code_challenge_method: 'S256',
        login_hint: request.loginHint,
      });
    },

    /**
     * The provider's answer at the callback: the code exchanged at the token endpoint (state,
     * nonce, PKCE and the ID token checked), then the person's claims.
     */
    async identify(
      settings: { issuer: string; clientId: string; clientSecret: string },
      answer: { currentUrl: URL; state: string; nonce: string; codeVerifier: string },
    ): Promise<SsoIdentity> {
      const config = await configure(settings);
      try {
        const tokens = await oidc.authorizationCodeGrant(config, answer.currentUrl, {
          expectedState: answer.state,
          expectedNonce: answer.nonce,
          pkceCodeVerifier: answer.codeVerifier,
          idTokenExpected: true,
        });
        const claims: Record<string, unknown> = { ...tokens.claims() };
        const subject = typeof claims['sub'] === 'string' ? claims['sub'] : oidc.skipSubjectCheck;
        if (config.serverMetadata().userinfo_endpoint) {
          Object.assign(claims, await oidc.fetchUserInfo(config, tokens.access_token, subject));
        }
        return identityOf(claims);
      } catch (error) {
        throw providerError(error, settings.issuer);
      }
    },
  };
}

export type SsoProvider = ReturnType<typeof createSsoProvider>;

function identityOf(claims: Record<string, unknown>): SsoIdentity {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
  const verified = claims['email_verified'];
  const groups = claims['groups'];
  return {
    email: text(claims['email']),
    emailVerified: verified === true || verified === 'true' ? true : verified === false || verified === 'false' ? false : null,
    name: text(claims['name']),
    groups: Array.isArray(groups)
      ? groups.filter((group): group is string => typeof group === 'string')
      : typeof groups === 'string'
        ? [groups]
        : [],
  };
}

function providerError(error: unknown, issuer: string): SsoProviderError {
  if (error instanceof SsoProviderError) return error;
  const refused = inChain(error, (cause) => cause instanceof WebhookTargetError);
  if (refused instanceof UnresolvedTargetError) {
    return new SsoProviderError(`Le nom de l’émetteur ${issuer} ne se résout pas : vérifiez son adresse.`, true, error);
  }
  if (refused instanceof WebhookTargetError) {
    return new SsoProviderError(
      'Émetteur refusé : il mène à cette machine, à un réseau privé ou à une adresse réservée. Donnez l’adresse publique du fournisseur d’identité (l’opérateur peut l’autoriser avec WEBHOOK_ALLOW_PRIVATE=true).',
      true,
      error,
    );
  }
  return new SsoProviderError(
    `Le fournisseur d’identité ${issuer} ne répond pas comme attendu : vérifiez l’émetteur, l’identifiant et le secret du client.`,
    false,
    error,
  );
}

function inChain(error: unknown, test: (cause: unknown) => boolean): unknown {
  for (let cause = error, depth = 0; cause && depth < 8; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (test(cause)) return cause;
  }
  return null;
}
