import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import { AppError, badRequest, conflict } from '../../errors.ts';
import { type SecretBox, SecretUnreadableError } from './secret-box.ts';
import type { OrganizationService } from '../organizations/organization-service.ts';
import { createTotpDal, type TotpState } from './totp-dal.ts';

export const TOTP_MESSAGES = {
  wrongCode: 'Code incorrect, expiré ou déjà utilisé.',
  noSetup: 'Aucune activation en cours : recommencez depuis « Activer la double authentification ».',
  alreadyOn: 'La double authentification est déjà activée.',
  notOn: 'La double authentification n’est pas activée sur ce compte\u202F: il n’a pas de codes de secours.',
  requiredForAdmins: 'Votre organisation exige la double authentification des administrateurs : elle ne peut pas être désactivée.',
  turnOnFirst: 'Activez d’abord la double authentification sur votre propre compte, pour ne pas vous en fermer l’accès.',
  setupRequired: 'Votre organisation exige la double authentification des administrateurs : activez-la dans « Mon compte » pour continuer.',
  unreadable:
    'La double authentification de ce compte ne peut pas être vérifiée par ce serveur\u202F: connectez-vous avec un de vos codes de secours, et prévenez la personne qui administre le serveur Vigie.',
} as const;

const ISSUER = 'Vigie';
const PERIOD_SECONDS = 30;
const RECOVERY_CODES = 10;
/** Unambiguous letters and digits (no 0/o, 1/l/i) for codes read from paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** Recovery codes are compared without their dash: `ab3d-k9mz` and `ab3dk9mz` are the same. */
const recoveryHash = (code: string) => sha256(code.replace('-', ''));

function totp(secret: string, label = ''): TOTP {
  return new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS });
}

function newRecoveryCode(): string {
  const letters = Array.from({ length: 8 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

const newRecoveryCodes = () => Array.from({ length: RECOVERY_CODES }, newRecoveryCode);

/**
 * Two-factor authentication by TOTP (RFC 6238, as in every authenticator app): turned on by
 * confirming a first code, with ten single-use recovery codes, and asked after the password. A
 * code is accepted once (the last accepted time step is kept), within one step of drift.
 */
export function createTotpService(deps: {
  db: Database;
  now: () => Date;
  /** Seals the secrets kept in the database (decision 0025): what is stored there cannot compute a code. */
  box: SecretBox;
  logger: Pick<Logger, 'error'>;
  /** A user's two-factor state or the organization's requirement changed: every instance reads the accounts again. */
  onAccountChanged?: (organizationId: string, userId?: string) => void | Promise<void>;
  /** The organization's requirement of a second factor for its admins, kept by the organizations module. */
  organizations: Pick<OrganizationService, 'findById' | 'setRequireTotpForAdmins'>;
}) {
  const dal = createTotpDal(deps.db);
  /** A sealed secret opens only on the row of its account. */
  const contextOf = (userId: string) => `totp:${userId}`;
  /** A stored value in clear, or opened by a key of this server (else SecretUnreadableError). */
  const plainOf = (userId: string, stored: string) => (deps.box.isSealed(stored) ? deps.box.open(stored, contextOf(userId)) : stored);

  /**
   * The secret a stored value holds. One still in clear (written before sealing, or by an instance
   * of the previous version) or sealed by a previous key opens too, and an active one moves to the
   * current key on the way. When no key of this server opens it, `unreadable` is thrown (and the
   * reason logged: another key, or a value altered or moved to another account).
   */
  async function reveal(userId: string, stored: string, which: 'secret' | 'pendingSecret', unreadable: AppError): Promise<string> {
    let plain: string;
    try {
      plain = plainOf(userId, stored);
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      deps.logger.error({ userId, reason: error.reason }, 'Secret de double authentification illisible avec les clés de ce serveur');
      throw unreadable;
    }
    if (which === 'secret' && !deps.box.isCurrent(stored)) {
      await dal.replaceSecret(userId, which, stored, deps.box.seal(plain, contextOf(userId)));
    }
    return plain;
  }

  /** The time step of a valid code for this secret now, or null. */
  function stepOf(secret: string, code: string): number | null {
    const timestamp = deps.now().getTime();
    const delta = totp(secret).validate({ token: code, timestamp, window: 1 });
    return delta === null ? null : Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
  }

  /** The account's two-factor state, with its organization's requirement. */
  async function stateOf(userId: string): Promise<(TotpState & { requireTotpForAdmins: boolean }) | undefined> {
    const state = await dal.state(userId);
    const organization = state && (await deps.organizations.findById(state.organizationId));
    return state && organization && { ...state, requireTotpForAdmins: organization.requireTotpForAdmins };
  }

  return {
    /** The account's two-factor state, with its organization's requirement. */
    state: stateOf,

    async enabledFor(userId: string): Promise<boolean> {
      return Boolean((await dal.state(userId))?.secret);
    },

    /** A new secret for the app to scan; the account keeps working as before until a code confirms it. */
    async setup(userId: string): Promise<{ secret: string; uri: string }> {
      const state = await dal.state(userId);
      if (!state) throw badRequest(TOTP_MESSAGES.noSetup);
      if (state.secret) throw conflict(TOTP_MESSAGES.alreadyOn);
      const secret = new Secret({ size: 20 }).base32;
      await dal.setPending(userId, deps.box.seal(secret, contextOf(userId)));
      return { secret, uri: totp(secret, state.email).toString() };
    },

    /** Confirms the pending secret with a code from the app; answers the recovery codes, shown this once. */
    async enable(userId: string, code: string): Promise<string[]> {
      const state = await dal.state(userId);
      if (state?.secret) throw conflict(TOTP_MESSAGES.alreadyOn);
      if (!state?.pendingSecret) throw badRequest(TOTP_MESSAGES.noSetup);
      if (!/^\d{6}$/.test(code)) throw badRequest(TOTP_MESSAGES.wrongCode);
      // A pending secret this server cannot read is an activation to start again.
      const pending = await reveal(userId, state.pendingSecret, 'pendingSecret', badRequest(TOTP_MESSAGES.noSetup));
      const step = stepOf(pending, code);
      if (step === null) throw badRequest(TOTP_MESSAGES.wrongCode);
      const codes = newRecoveryCodes();
      const active = deps.box.isCurrent(state.pendingSecret) ? state.pendingSecret : deps.box.seal(pending, contextOf(userId));
      if (!(await dal.enable(userId, state.pendingSecret, active, step, codes.map(recoveryHash)))) throw badRequest(TOTP_MESSAGES.noSetup);
      await deps.onAccountChanged?.(state.organizationId, userId);
      return codes;
    },

    /**
     * Whether `code` (from the app, or a recovery code) proves the second factor of this account,
     * spending it: the same code never works twice, even sent twice at once.
     */
    async verify(userId: string, code: string): Promise<'app' | 'recovery' | null> {
      const state = await dal.state(userId);
      if (!state?.secret) return null;
      if (/^\d{6}$/.test(code)) {
        const step = stepOf(await reveal(userId, state.secret, 'secret', new AppError(503, TOTP_MESSAGES.unreadable)), code);
        return step !== null && (await dal.acceptStep(userId, step)) ? 'app' : null;
      }
      return (await dal.spendRecoveryCode(userId, recoveryHash(code), deps.now())) ? 'recovery' : null;
    },

    /** Unused recovery codes of the account; 409 when two-factor authentication is off. */
    async remainingRecoveryCodes(userId: string): Promise<number> {
      if (!(await dal.state(userId))?.secret) throw conflict(TOTP_MESSAGES.notOn);
      return dal.remainingRecoveryCodes(userId);
    },

    /** Ten new recovery codes, shown this once; the old ones, used or not, stop working. 409 when it is off. */
    async renewRecoveryCodes(userId: string): Promise<string[]> {
      const codes = newRecoveryCodes();
      if (!(await dal.renewRecoveryCodes(userId, codes.map(recoveryHash)))) throw conflict(TOTP_MESSAGES.notOn);
      return codes;
    },

    /**
     * At start-up: seals with the current key the secrets still in clear (stored before sealing)
     * or sealed by a previous key, each once even with several instances at it; counts the
     * accounts whose secret no key of this server opens.
     */
    async sealStoredSecrets(): Promise<{ sealed: number; unreadable: number }> {
      let sealed = 0;
      const unreadable = new Set<string>();
      for (const row of await dal.notSealedWith(deps.box.ownPrefix)) {
        for (const column of ['secret', 'pendingSecret'] as const) {
          const stored = row[column];
          if (stored === null || deps.box.isCurrent(stored)) continue;
          let plain: string;
          try {
            plain = plainOf(row.id, stored);
          } catch (error) {
            if (!(error instanceof SecretUnreadableError)) throw error;
            unreadable.add(row.id);
            continue;
          }
          if (await dal.replaceSecret(row.id, column, stored, deps.box.seal(plain, contextOf(row.id)))) sealed += 1;
        }
      }
      return { sealed, unreadable: unreadable.size };
    },

    /** Turns it off (the caller checked the password); refused to an admin whose organization requires it. */
    async disable(userId: string): Promise<void> {
      const state = await stateOf(userId);
      if (state?.role === 'admin' && state.requireTotpForAdmins) throw conflict(TOTP_MESSAGES.requiredForAdmins);
      await dal.disable(userId);
      if (state) await deps.onAccountChanged?.(state.organizationId, userId);
    },

    /** The organization's requirement; turning it on needs the admin who does it to have it on. */
    async setRequirement(admin: { id: string; organizationId: string }, requireTotpForAdmins: boolean): Promise<void> {
      if (requireTotpForAdmins && !(await dal.state(admin.id))?.secret) throw new AppError(409, TOTP_MESSAGES.turnOnFirst);
      await deps.organizations.setRequireTotpForAdmins(admin.organizationId, requireTotpForAdmins);
      await deps.onAccountChanged?.(admin.organizationId);
    },
  };
}

export type TotpService = ReturnType<typeof createTotpService>;
