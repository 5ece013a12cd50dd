import { z } from 'zod';
import { auditQuerySchema, auditResponseSchema } from '../audit.ts';
import {
  changePasswordRequestSchema,
  currentUserResponseSchema,
  loginChallengeResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  memberTwoFactorResetRequestSchema,
  passwordResetConfirmRequestSchema,
  passwordResetRequestedResponseSchema,
  passwordResetRequestSchema,
  securityPolicyResponseSchema,
  securityPolicySchema,
  totpDisableRequestSchema,
  totpEnableRequestSchema,
  totpEnableResponseSchema,
  totpLoginRequestSchema,
  totpRecoveryCodesRequestSchema,
  totpRecoveryCodesStatusSchema,
  totpSetupResponseSchema,
} from '../auth.ts';
import { errorResponseSchema, idParamsSchema } from '../common.ts';
import {
  acceptInvitationRequestSchema,
  createInvitationRequestSchema,
  invitationPreviewResponseSchema,
  invitationResponseSchema,
  invitationsResponseSchema,
  memberResponseSchema,
  membersResponseSchema,
  previewInvitationRequestSchema,
  updateMemberRequestSchema,
} from '../members.ts';
import { admins, endpoint, everyone, forPeopleOnly, own, ownAccount, publicAccess, shared, wholeOrganization } from './define.ts';

const sessionErrors = { 400: errorResponseSchema, 401: errorResponseSchema, 429: errorResponseSchema };
const passwordResetErrors = { 400: errorResponseSchema, 404: errorResponseSchema, 410: errorResponseSchema, 429: errorResponseSchema };
const totpErrors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  409: errorResponseSchema,
  429: errorResponseSchema,
};
const teamErrors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};
const publicInvitationErrors = {
  400: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  410: errorResponseSchema,
  429: errorResponseSchema,
};
const auditErrors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema };

/** Without two-factor authentication, the specification's `{accessToken}`; with it, the code step's challenge. */
const loginAnswerSchema = z.union([loginResponseSchema, loginChallengeResponseSchema]);

/** The audit trail's filters for the CSV export: the whole filtered trail, so no page. */
const auditExportQuerySchema = auditQuerySchema.omit({ limit: true, cursor: true });

const manageMembers = admins('gérer les membres');
const manageInvitations = admins('gérer les invitations');
const readAuditTrail = admins('consulter le journal');

const accountsTag = 'Comptes';
const totpTag = 'Double authentification';
const membersTag = 'Membres';
const invitationsTag = 'Invitations';
const auditTag = 'Journal d’audit';

/** Signing in and out, one's own account, two-factor authentication, the team and the audit trail. */
export const accountEndpoints = {
  auth: {
    login: endpoint({
      method: 'POST',
      path: '/api/auth/login',
      summary: 'Ouvre une session avec une adresse e-mail et un mot de passe.',
      description:
        'Répond `{accessToken}` ; si la double authentification est activée, `{totpRequired: true, challenge}` : le défi, valable 5 minutes, revient avec le code à l’étape suivante. Sans `rememberMe`, la session prend fin après `SESSION_IDLE_MINUTES` sans requête et au plus tard après `SESSION_MAX_HOURS` ; avec, après `SESSION_REMEMBER_DAYS`. Essais limités par adresse e-mail et par adresse IP (429). Corps de 8 Kio au plus.',
      tag: accountsTag,
      access: publicAccess,
      schema: { body: loginRequestSchema, response: { 200: loginAnswerSchema, ...sessionErrors } },
    }),
    loginWithCode: endpoint({
      method: 'POST',
      path: '/api/auth/login/totp',
      summary: 'Termine une connexion avec double authentification : le défi de l’étape du mot de passe et un code.',
      description:
        '`code` : les 6 chiffres de l’application ou un code de secours (chacun une fois) ; code faux, expiré ou déjà utilisé : 401. Essais limités comme la connexion (429). Corps de 8 Kio au plus.',
      tag: accountsTag,
      access: publicAccess,
      schema: { body: totpLoginRequestSchema, response: { 200: loginResponseSchema, ...sessionErrors } },
    }),
    logout: endpoint({
      method: 'POST',
      path: '/api/auth/logout',
      summary: 'Ferme la session du jeton utilisé : ce jeton est refusé aussitôt, partout.',
      description: 'Les flux directs de la session se ferment ; les autres sessions de la personne restent ouvertes. Répond 204.',
      tag: accountsTag,
      access: ownAccount,
      schema: {},
    }),
    logoutEverywhere: endpoint({
      method: 'POST',
      path: '/api/auth/logout-all',
      summary: 'Ferme toutes les sessions de la personne, celle-ci comprise (« Se déconnecter de tous les appareils »).',
      tag: accountsTag,
      access: ownAccount,
      schema: {},
    }),
    requestPasswordReset: endpoint({
      method: 'POST',
      path: '/api/auth/password-reset',
      summary: 'Envoie par e-mail un lien pour choisir un nouveau mot de passe (« Mot de passe oublié ? »).',
      description:
        'La même réponse 202, dans le même délai, que l’adresse ait un compte ou non. Le lien vaut `PASSWORD_RESET_TTL_MINUTES` et une seule fois ; une nouvelle demande annule les précédents. Limité à 3 demandes par adresse e-mail, et par adresse IP comme la connexion (429 avec `Retry-After`). Corps de 8 Kio au plus.',
      tag: accountsTag,
      access: publicAccess,
      schema: { body: passwordResetRequestSchema, response: { 202: passwordResetRequestedResponseSchema, ...passwordResetErrors } },
    }),
    confirmPasswordReset: endpoint({
      method: 'POST',
      path: '/api/auth/password-reset/confirm',
      summary: 'Remplace le mot de passe avec le secret du lien reçu ; toutes les sessions du compte prennent fin.',
      description:
        'Le lien ne sert qu’une fois. Lien inconnu, déjà servi ou remplacé : 404 ; expiré : 410 ; limité par adresse IP comme la connexion (429). Corps de 8 Kio au plus.',
      tag: accountsTag,
      access: publicAccess,
      schema: { body: passwordResetConfirmRequestSchema, response: { 204: z.null(), ...passwordResetErrors } },
    }),
  },
  user: {
    me: endpoint({
      method: 'GET',
      path: '/api/user/me',
      summary: 'Lit le compte de la personne connectée : nom, adresse, rôle, organisation et état de la double authentification.',
      tag: accountsTag,
      access: ownAccount,
      schema: { response: { 200: currentUserResponseSchema, 401: errorResponseSchema } },
    }),
    changePassword: endpoint({
      method: 'PUT',
      path: '/api/user/password',
      summary: 'Change son mot de passe, en donnant l’actuel ; les autres sessions de la personne prennent fin aussitôt.',
      description:
        'Nouveau mot de passe de 8 caractères au moins ; mot de passe actuel faux : 400 (essais limités comme la connexion, 429). Corps de 8 Kio au plus.',
      tag: accountsTag,
      access: ownAccount,
      schema: { body: changePasswordRequestSchema, response: { 204: z.null(), ...sessionErrors } },
    }),
  },
  totp: {
    setup: endpoint({
      method: 'POST',
      path: '/api/user/totp/setup',
      summary: 'Prépare la double authentification : un nouveau secret et son URI otpauth:// à montrer en QR code.',
      description: 'Rien ne change tant qu’un code de l’application ne l’a pas confirmé. Déjà activée : 409.',
      tag: totpTag,
      access: ownAccount,
      schema: { response: { 200: totpSetupResponseSchema, ...totpErrors } },
    }),
    enable: endpoint({
      method: 'POST',
      path: '/api/user/totp/enable',
      summary:
        'Active la double authentification avec un code de l’application ; les dix codes de secours reviennent, cette fois seulement.',
      description: 'Corps de 4 Kio au plus.',
      tag: totpTag,
      access: ownAccount,
      schema: { body: totpEnableRequestSchema, response: { 200: totpEnableResponseSchema, ...totpErrors } },
    }),
    disable: endpoint({
      method: 'POST',
      path: '/api/user/totp/disable',
      summary: 'Désactive la double authentification, en donnant son mot de passe.',
      description: 'Mot de passe faux : 400 ; exigée par l’organisation pour un administrateur : 409. Corps de 8 Kio au plus.',
      tag: totpTag,
      access: own(everyone),
      schema: { body: totpDisableRequestSchema, response: { 204: z.null(), ...totpErrors } },
    }),
    recoveryCodesLeft: endpoint({
      method: 'GET',
      path: '/api/user/totp/recovery-codes',
      summary: 'Compte les codes de secours encore inutilisés.',
      tag: totpTag,
      access: own(everyone),
      schema: { response: { 200: totpRecoveryCodesStatusSchema, ...totpErrors } },
    }),
    renewRecoveryCodes: endpoint({
      method: 'POST',
      path: '/api/user/totp/recovery-codes',
      summary: 'Remplace les codes de secours par dix nouveaux, en donnant son mot de passe ; les anciens ne servent plus.',
      description:
        'Les nouveaux codes ne sont montrés qu’une fois. Mot de passe faux : 400 ; double authentification désactivée : 409. Corps de 8 Kio au plus.',
      tag: totpTag,
      access: own(everyone),
      schema: { body: totpRecoveryCodesRequestSchema, response: { 200: totpEnableResponseSchema, ...totpErrors } },
    }),
  },
  organizationSecurity: {
    get: endpoint({
      method: 'GET',
      path: '/api/organization/security',
      summary: 'Dit si l’organisation exige la double authentification de ses administrateurs.',
      tag: totpTag,
      access: forPeopleOnly(shared(everyone)),
      schema: { response: { 200: securityPolicyResponseSchema, ...totpErrors } },
    }),
    update: endpoint({
      method: 'PUT',
      path: '/api/organization/security',
      summary: 'Exige ou non la double authentification des administrateurs de l’organisation.',
      description:
        'L’administrateur qui la demande doit l’avoir activée lui-même (409 sinon) ; un administrateur sans double authentification reçoit ensuite 403 partout sauf sur son compte.',
      tag: totpTag,
      access: forPeopleOnly(
        wholeOrganization(admins('changer les règles de sécurité de l’organisation'), 'changer les règles de sécurité de l’organisation'),
      ),
      schema: { body: securityPolicySchema, response: { 200: securityPolicyResponseSchema, ...totpErrors } },
    }),
  },
  members: {
    list: endpoint({
      method: 'GET',
      path: '/api/members',
      summary: 'Liste les membres de l’organisation, par nom (puis adresse), avec leur rôle.',
      tag: membersTag,
      access: forPeopleOnly(shared(everyone)),
      schema: { response: { 200: membersResponseSchema, ...teamErrors } },
    }),
    update: endpoint({
      method: 'PUT',
      path: '/api/members/:id',
      summary: 'Change le rôle d’un membre ; il vaut dès sa requête suivante.',
      description: 'Membre d’une autre organisation : 404 ; rétrograder le dernier administrateur : 409.',
      tag: membersTag,
      access: forPeopleOnly(wholeOrganization(manageMembers, 'gérer les membres')),
      schema: { params: idParamsSchema, body: updateMemberRequestSchema, response: { 200: memberResponseSchema, ...teamErrors } },
    }),
    resetTwoFactor: endpoint({
      method: 'POST',
      path: '/api/members/:id/two-factor/reset',
      summary: 'Désactive la double authentification d’un membre qui a perdu son téléphone et ses codes de secours.',
      description:
        'L’administrateur donne son propre mot de passe (faux : 400). Les sessions du membre prennent fin et il est prévenu par e-mail. Pas pour soi-même ni pour un membre sans double authentification (409) ; autre organisation : 404. Corps de 8 Kio au plus.',
      tag: membersTag,
      access: forPeopleOnly(wholeOrganization(manageMembers, 'gérer les membres')),
      schema: {
        params: idParamsSchema,
        body: memberTwoFactorResetRequestSchema,
        response: { 204: z.null(), ...teamErrors, 429: errorResponseSchema },
      },
    }),
    remove: endpoint({
      method: 'DELETE',
      path: '/api/members/:id',
      summary: 'Retire un membre : son compte est supprimé et toutes ses sessions prennent fin aussitôt.',
      description: 'Dernier administrateur : 409 ; autre organisation : 404.',
      tag: membersTag,
      access: forPeopleOnly(wholeOrganization(manageMembers, 'gérer les membres')),
      schema: { params: idParamsSchema, response: { 204: z.null(), ...teamErrors } },
    }),
  },
  invitations: {
    list: endpoint({
      method: 'GET',
      path: '/api/invitations',
      summary: 'Liste les invitations en attente, expirées comprises pour pouvoir les renvoyer.',
      tag: invitationsTag,
      access: forPeopleOnly(wholeOrganization(manageInvitations, 'gérer les invitations')),
      schema: { response: { 200: invitationsResponseSchema, ...teamErrors } },
    }),
    create: endpoint({
      method: 'POST',
      path: '/api/invitations',
      summary: 'Invite une personne par e-mail, avec un rôle.',
      description:
        'Le lien vaut `INVITATION_TTL_HOURS` et une seule fois ; une invitation en attente pour la même adresse est remplacée. Adresse qui a déjà un compte : 409. Sans `SMTP_URL`, l’invitation est créée mais `emailSent` vaut `false`.',
      tag: invitationsTag,
      access: forPeopleOnly(wholeOrganization(manageInvitations, 'gérer les invitations')),
      schema: { body: createInvitationRequestSchema, response: { 201: invitationResponseSchema, ...teamErrors } },
    }),
    resend: endpoint({
      method: 'POST',
      path: '/api/invitations/:id/resend',
      summary: 'Renvoie une invitation avec un nouveau lien et une nouvelle échéance ; l’ancien lien ne sert plus.',
      tag: invitationsTag,
      access: forPeopleOnly(wholeOrganization(manageInvitations, 'gérer les invitations')),
      schema: { params: idParamsSchema, response: { 200: invitationResponseSchema, ...teamErrors } },
    }),
    remove: endpoint({
      method: 'DELETE',
      path: '/api/invitations/:id',
      summary: 'Révoque une invitation : son lien ne sert plus.',
      tag: invitationsTag,
      access: forPeopleOnly(wholeOrganization(manageInvitations, 'gérer les invitations')),
      schema: { params: idParamsSchema, response: { 204: z.null(), ...teamErrors } },
    }),
    preview: endpoint({
      method: 'POST',
      path: '/api/invitations/preview',
      summary: 'Montre une invitation d’après le secret de son lien : l’adresse invitée, l’organisation, le rôle et l’échéance.',
      description:
        'Lien inconnu, déjà servi ou révoqué : 404 ; expiré : 410 ; limité par adresse IP comme la connexion (429). Corps de 8 Kio au plus.',
      tag: invitationsTag,
      access: publicAccess,
      schema: { body: previewInvitationRequestSchema, response: { 200: invitationPreviewResponseSchema, ...publicInvitationErrors } },
    }),
    accept: endpoint({
      method: 'POST',
      path: '/api/invitations/accept',
      summary: 'Accepte une invitation : le compte est créé avec le rôle de l’invitation, et connecté.',
      description:
        'Le lien ne sert qu’une fois, même envoyé deux fois en même temps ; mêmes 404, 410 et 429 que l’aperçu ; adresse qui a entre-temps un compte : 409. Corps de 8 Kio au plus.',
      tag: invitationsTag,
      access: publicAccess,
      schema: { body: acceptInvitationRequestSchema, response: { 201: loginResponseSchema, ...publicInvitationErrors } },
    }),
  },
  audit: {
    list: endpoint({
      method: 'GET',
      path: '/api/audit',
      summary: 'Lit une page du journal d’audit, la plus récente d’abord, filtrée par action, auteur, texte et période.',
      description:
        '`from` et `to` sont des jours `AAAA-MM-JJ` inclus, dans le fuseau `tz` (`Europe/Paris` par défaut) ; `q` cherche dans les noms et adresses ; `limit` de 1 à 500 (100 par défaut) ; `nextCursor` donne la page suivante. Filtre invalide : 400.',
      tag: auditTag,
      access: wholeOrganization(readAuditTrail, 'consulter le journal'),
      schema: { querystring: auditQuerySchema, response: { 200: auditResponseSchema, ...auditErrors } },
    }),
    exportCsv: endpoint({
      method: 'GET',
      path: '/api/audit.csv',
      summary: 'Exporte en CSV tout le journal d’audit filtré, avec les mêmes filtres que sa lecture.',
      description:
        'BOM UTF-8, séparateur `;` : date locale et UTC, action, auteur, son adresse, objet, son nom, détails, adresse IP. Une cellule qui commencerait comme une formule est précédée d’une apostrophe. Filtre invalide : 400.',
      tag: auditTag,
      access: wholeOrganization(readAuditTrail, 'consulter le journal'),
      schema: { querystring: auditExportQuerySchema },
      produces: ['text/csv'],
    }),
  },
};
