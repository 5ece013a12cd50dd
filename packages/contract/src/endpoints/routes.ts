// Generated from the endpoint catalogue (packages/contract/src/endpoints) by `npm run endpoints:generate`: do not edit.
// Each endpoint’s method, path and access, without its schemas: what a client needs to call it by name.
import type { Route } from './define.ts';

export const endpoints = {
  health: {
    live: { method: 'GET', path: '/api/health', access: { kind: 'public' } },
    ready: { method: 'GET', path: '/api/ready', access: { kind: 'public' } },
  },
  reference: {
    openapi: { method: 'GET', path: '/api/openapi.json', access: { kind: 'public' } },
  },
  auth: {
    login: { method: 'POST', path: '/api/auth/login', access: { kind: 'public' } },
    loginWithCode: { method: 'POST', path: '/api/auth/login/totp', access: { kind: 'public' } },
    logout: { method: 'POST', path: '/api/auth/logout', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', duringTotpSetup: true, scope: { kind: 'own' } } },
    logoutEverywhere: { method: 'POST', path: '/api/auth/logout-all', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', duringTotpSetup: true, scope: { kind: 'own' } } },
    requestPasswordReset: { method: 'POST', path: '/api/auth/password-reset', access: { kind: 'public' } },
    confirmPasswordReset: { method: 'POST', path: '/api/auth/password-reset/confirm', access: { kind: 'public' } },
  },
  user: {
    me: { method: 'GET', path: '/api/user/me', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', duringTotpSetup: true, scope: { kind: 'own' } } },
    changePassword: { method: 'PUT', path: '/api/user/password', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', duringTotpSetup: true, scope: { kind: 'own' } } },
  },
  totp: {
    setup: { method: 'POST', path: '/api/user/totp/setup', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', duringTotpSetup: true, scope: { kind: 'own' } } },
    enable: { method: 'POST', path: '/api/user/totp/enable', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', duringTotpSetup: true, scope: { kind: 'own' } } },
    disable: { method: 'POST', path: '/api/user/totp/disable', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'own' } } },
    recoveryCodesLeft: { method: 'GET', path: '/api/user/totp/recovery-codes', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'own' } } },
    renewRecoveryCodes: { method: 'POST', path: '/api/user/totp/recovery-codes', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'own' } } },
  },
  organizationSecurity: {
    get: { method: 'GET', path: '/api/organization/security', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', peopleOnly: true, scope: { kind: 'shared' } } },
    update: { method: 'PUT', path: '/api/organization/security', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut changer les règles de sécurité de l’organisation.', peopleOnly: true, scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut changer les règles de sécurité de l’organisation.' } } },
  },
  members: {
    list: { method: 'GET', path: '/api/members', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', peopleOnly: true, scope: { kind: 'shared' } } },
    update: { method: 'PUT', path: '/api/members/:id', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les membres.', peopleOnly: true, scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les membres.' } } },
    resetTwoFactor: { method: 'POST', path: '/api/members/:id/two-factor/reset', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les membres.', peopleOnly: true, scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les membres.' } } },
    remove: { method: 'DELETE', path: '/api/members/:id', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les membres.', peopleOnly: true, scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les membres.' } } },
  },
  invitations: {
    list: { method: 'GET', path: '/api/invitations', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les invitations.', peopleOnly: true, scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les invitations.' } } },
    create: { method: 'POST', path: '/api/invitations', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les invitations.', peopleOnly: true, scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les invitations.' } } },
    resend: { method: 'POST', path: '/api/invitations/:id/resend', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les invitations.', peopleOnly: true, scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les invitations.' } } },
    remove: { method: 'DELETE', path: '/api/invitations/:id', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les invitations.', peopleOnly: true, scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les invitations.' } } },
    preview: { method: 'POST', path: '/api/invitations/preview', access: { kind: 'public' } },
    accept: { method: 'POST', path: '/api/invitations/accept', access: { kind: 'public' } },
  },
  audit: {
    list: { method: 'GET', path: '/api/audit', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut consulter le journal.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut consulter le journal.' } } },
    exportCsv: { method: 'GET', path: '/api/audit.csv', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut consulter le journal.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut consulter le journal.' } } },
  },
  apiKeys: {
    list: { method: 'GET', path: '/api/api-keys', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les clés d’API.', peopleOnly: true, scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les clés d’API.' } } },
    create: { method: 'POST', path: '/api/api-keys', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les clés d’API.', peopleOnly: true, scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les clés d’API.' } } },
    revoke: { method: 'DELETE', path: '/api/api-keys/:id', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les clés d’API.', peopleOnly: true, scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les clés d’API.' } } },
  },
  readingsExport: {
    csv: { method: 'GET', path: '/api/readings.csv', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
  },
  emitter: {
    list: { method: 'GET', path: '/api/emitter', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    create: { method: 'POST', path: '/api/emitter', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les appareils.', scope: { kind: 'sites' } } },
    get: { method: 'GET', path: '/api/emitter/:id', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'emitter' } } },
    update: { method: 'PUT', path: '/api/emitter/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les appareils.', scope: { kind: 'resource', resource: 'emitter' } } },
    remove: { method: 'DELETE', path: '/api/emitter/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les appareils.', scope: { kind: 'resource', resource: 'emitter' } } },
    restore: { method: 'POST', path: '/api/emitter/:id/restore', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les appareils.', scope: { kind: 'resource', resource: 'emitter', notFound: 'Cet appareil n’est pas dans la corbeille.' } } },
    rotateToken: { method: 'POST', path: '/api/emitter/:id/token', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les appareils.', scope: { kind: 'resource', resource: 'emitter' } } },
    readings: { method: 'GET', path: '/api/emitter/:id/readings', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'emitter' } } },
    readingsCsv: { method: 'GET', path: '/api/emitter/:id/readings.csv', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'emitter' } } },
  },
  sensor: {
    list: { method: 'GET', path: '/api/sensor', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    create: { method: 'POST', path: '/api/sensor', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les appareils.', scope: { kind: 'sites' } } },
    get: { method: 'GET', path: '/api/sensor/:id', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'sensor' } } },
    update: { method: 'PUT', path: '/api/sensor/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les appareils.', scope: { kind: 'resource', resource: 'sensor' } } },
    remove: { method: 'DELETE', path: '/api/sensor/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les appareils.', scope: { kind: 'resource', resource: 'sensor' } } },
    restore: { method: 'POST', path: '/api/sensor/:id/restore', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les appareils.', scope: { kind: 'resource', resource: 'sensor', notFound: 'Cet appareil n’est pas dans la corbeille.' } } },
    rotateToken: { method: 'POST', path: '/api/sensor/:id/token', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les appareils.', scope: { kind: 'resource', resource: 'sensor' } } },
    readings: { method: 'GET', path: '/api/sensor/:id/readings', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'sensor' } } },
    readingsCsv: { method: 'GET', path: '/api/sensor/:id/readings.csv', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'sensor' } } },
    insights: { method: 'GET', path: '/api/sensor/:id/insights', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'sensor' } } },
  },
  devices: {
    protocol: { method: 'GET', path: '/api/devices/protocol', access: { kind: 'device' } },
    provision: { method: 'POST', path: '/api/devices/provision', access: { kind: 'device' } },
    telemetry: { method: 'POST', path: '/api/devices/telemetry', access: { kind: 'device' } },
    claim: { method: 'POST', path: '/api/devices/claim', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent rattacher un appareil.', scope: { kind: 'sites' } } },
    claimCheck: { method: 'POST', path: '/api/devices/claim/check', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent rattacher un appareil.', scope: { kind: 'sites' } } },
  },
  installationKey: {
    get: { method: 'GET', path: '/api/organization/installation-key', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent voir la clé d\'installation.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut voir la clé d’installation.' } } },
    rotate: { method: 'POST', path: '/api/organization/installation-key', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent renouveler la clé d\'installation.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut renouveler la clé d’installation.' } } },
  },
  trash: {
    list: { method: 'GET', path: '/api/trash', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
  },
  insights: {
    watch: { method: 'GET', path: '/api/insights/watch', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
  },
  stream: {
    open: { method: 'GET', path: '/api/stream', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
  },
  integrations: {
    list: { method: 'GET', path: '/api/integrations', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'shared' } } },
    create: { method: 'POST', path: '/api/integrations', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les intégrations LoRaWAN.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les intégrations LoRaWAN.' } } },
    remove: { method: 'DELETE', path: '/api/integrations/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les intégrations LoRaWAN.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les intégrations LoRaWAN.' } } },
    events: { method: 'POST', path: '/api/integrations/:id/events', access: { kind: 'device' } },
  },
  lorawan: {
    codecs: { method: 'GET', path: '/api/lorawan/codecs', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'shared' } } },
    testCodec: { method: 'POST', path: '/api/lorawan/codecs/test', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les intégrations LoRaWAN.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les intégrations LoRaWAN.' } } },
    saveCodec: { method: 'POST', path: '/api/lorawan/codecs', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les intégrations LoRaWAN.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les intégrations LoRaWAN.' } } },
    removeCodec: { method: 'DELETE', path: '/api/lorawan/codecs/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les intégrations LoRaWAN.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les intégrations LoRaWAN.' } } },
    devices: { method: 'GET', path: '/api/lorawan/devices', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    register: { method: 'POST', path: '/api/lorawan/devices', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les intégrations LoRaWAN.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les intégrations LoRaWAN.' } } },
    pending: { method: 'GET', path: '/api/lorawan/pending', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    dismiss: { method: 'DELETE', path: '/api/lorawan/pending/:devEui', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les intégrations LoRaWAN.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut écarter un appareil LoRaWAN détecté.' } } },
  },
  sites: {
    list: { method: 'GET', path: '/api/sites', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    create: { method: 'POST', path: '/api/sites', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les sites.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut créer un site.' } } },
    get: { method: 'GET', path: '/api/sites/:id', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'site' } } },
    update: { method: 'PUT', path: '/api/sites/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les sites.', scope: { kind: 'resource', resource: 'site' } } },
    remove: { method: 'DELETE', path: '/api/sites/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les sites.', scope: { kind: 'resource', resource: 'site' } } },
  },
  regions: {
    list: { method: 'GET', path: '/api/regions', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    create: { method: 'POST', path: '/api/regions', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les régions.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les régions.' } } },
    update: { method: 'PUT', path: '/api/regions/:id', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les régions.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les régions.' } } },
    remove: { method: 'DELETE', path: '/api/regions/:id', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les régions.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les régions.' } } },
  },
  overview: {
    get: { method: 'GET', path: '/api/overview', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
  },
  alertRules: {
    list: { method: 'GET', path: '/api/alert-rules', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    create: { method: 'POST', path: '/api/alert-rules', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les règles d\'alerte.', scope: { kind: 'sites' } } },
    get: { method: 'GET', path: '/api/alert-rules/:id', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'alertRule' } } },
    update: { method: 'PUT', path: '/api/alert-rules/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les règles d\'alerte.', scope: { kind: 'resource', resource: 'alertRule' } } },
    remove: { method: 'DELETE', path: '/api/alert-rules/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer les règles d\'alerte.', scope: { kind: 'resource', resource: 'alertRule' } } },
  },
  ruleTemplates: {
    list: { method: 'GET', path: '/api/rule-templates', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'shared' } } },
    create: { method: 'POST', path: '/api/rule-templates', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les modèles de règles de l’organisation.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les modèles de règles.' } } },
    update: { method: 'PUT', path: '/api/rule-templates/:id', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les modèles de règles de l’organisation.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les modèles de règles.' } } },
    remove: { method: 'DELETE', path: '/api/rule-templates/:id', access: { kind: 'members', roles: ['admin'], message: 'Seul un administrateur peut gérer les modèles de règles de l’organisation.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut gérer les modèles de règles.' } } },
  },
  alerts: {
    list: { method: 'GET', path: '/api/alerts', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    get: { method: 'GET', path: '/api/alerts/:id', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'alert' } } },
    acknowledge: { method: 'POST', path: '/api/alerts/:id/acknowledge', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'alert' } } },
    recordAction: { method: 'POST', path: '/api/alerts/:id/actions', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent traiter une alerte ; votre rôle permet seulement d’en accuser réception.', scope: { kind: 'resource', resource: 'alert' } } },
    resolve: { method: 'POST', path: '/api/alerts/:id/resolve', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent traiter une alerte ; votre rôle permet seulement d’en accuser réception.', scope: { kind: 'resource', resource: 'alert' } } },
  },
  notificationPolicy: {
    get: { method: 'GET', path: '/api/notification-policy', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'shared' } } },
    update: { method: 'PUT', path: '/api/notification-policy', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent modifier les notifications.', scope: { kind: 'organization', message: 'Seul un membre qui voit toute l’organisation peut modifier les notifications de l’organisation.' } } },
  },
  pauses: {
    list: { method: 'GET', path: '/api/pauses', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    create: { method: 'POST', path: '/api/pauses', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent mettre en pause un capteur ou un magasin.', scope: { kind: 'sites' } } },
    end: { method: 'DELETE', path: '/api/pauses/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent mettre en pause un capteur ou un magasin.', scope: { kind: 'sites' } } },
  },
  push: {
    publicKey: { method: 'GET', path: '/api/push/public-key', access: { kind: 'public' } },
    subscribe: { method: 'POST', path: '/api/user/push-subscriptions', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'own' } } },
    unsubscribe: { method: 'DELETE', path: '/api/user/push-subscriptions', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'own' } } },
  },
  phone: {
    get: { method: 'GET', path: '/api/user/phone', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'own' } } },
    set: { method: 'PUT', path: '/api/user/phone', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'own' } } },
    verify: { method: 'POST', path: '/api/user/phone/verify', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'own' } } },
    remove: { method: 'DELETE', path: '/api/user/phone', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'own' } } },
    quietHours: { method: 'PUT', path: '/api/user/quiet-hours', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'own' } } },
  },
  onCall: {
    get: { method: 'GET', path: '/api/sites/:id/on-call', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'site' } } },
    update: { method: 'PUT', path: '/api/sites/:id/on-call', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent régler l’astreinte d’un site.', scope: { kind: 'resource', resource: 'site' } } },
  },
  voice: {
    answer: { method: 'POST', path: '/api/voice/:token', access: { kind: 'public' } },
  },
  digest: {
    get: { method: 'GET', path: '/api/user/digest', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'own' } } },
    set: { method: 'PUT', path: '/api/user/digest', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'own' } } },
  },
  checks: {
    list: { method: 'GET', path: '/api/checks', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    create: { method: 'POST', path: '/api/checks', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
  },
  calibrations: {
    list: { method: 'GET', path: '/api/sensor/:id/calibrations', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'sensor' } } },
    create: { method: 'POST', path: '/api/sensor/:id/calibrations', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent noter une vérification de capteur.', scope: { kind: 'resource', resource: 'sensor' } } },
    certificate: { method: 'GET', path: '/api/sensor/:id/calibrations/:calibrationId/certificate', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'sensor', notFound: 'Certificat introuvable.' } } },
  },
  reports: {
    list: { method: 'GET', path: '/api/reports', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    create: { method: 'POST', path: '/api/reports', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent établir un rapport.', scope: { kind: 'sites' } } },
    consolidated: { method: 'GET', path: '/api/reports/consolidated', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    get: { method: 'GET', path: '/api/reports/:id', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'report' } } },
    pdf: { method: 'GET', path: '/api/reports/:id/pdf', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'report' } } },
    signedPdf: { method: 'GET', path: '/api/reports/:id/signed.pdf', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'report' } } },
    csv: { method: 'GET', path: '/api/reports/:id/csv', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'report' } } },
    sign: { method: 'POST', path: '/api/reports/:id/sign', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent signer un rapport.', scope: { kind: 'resource', resource: 'report' } } },
  },
  taskTemplates: {
    list: { method: 'GET', path: '/api/task-templates', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer le plan de maîtrise sanitaire.', scope: { kind: 'sites' } } },
    create: { method: 'POST', path: '/api/task-templates', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer le plan de maîtrise sanitaire.', scope: { kind: 'sites' } } },
    get: { method: 'GET', path: '/api/task-templates/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer le plan de maîtrise sanitaire.', scope: { kind: 'sites' } } },
    update: { method: 'PUT', path: '/api/task-templates/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer le plan de maîtrise sanitaire.', scope: { kind: 'sites' } } },
    remove: { method: 'DELETE', path: '/api/task-templates/:id', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent gérer le plan de maîtrise sanitaire.', scope: { kind: 'sites' } } },
  },
  tasks: {
    list: { method: 'GET', path: '/api/tasks', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    get: { method: 'GET', path: '/api/tasks/:id', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'task' } } },
    complete: { method: 'POST', path: '/api/tasks/:id/complete', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent remplir une tâche du plan de maîtrise sanitaire.', scope: { kind: 'resource', resource: 'task' } } },
    uploadPhoto: { method: 'POST', path: '/api/tasks/:id/photos', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent remplir une tâche du plan de maîtrise sanitaire.', scope: { kind: 'resource', resource: 'task' } } },
    photo: { method: 'GET', path: '/api/tasks/:id/photos/:photoId', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'resource', resource: 'task', notFound: 'Photo introuvable.' } } },
  },
  processes: {
    list: { method: 'GET', path: '/api/processes', access: { kind: 'members', roles: ['admin', 'manager', 'viewer'], message: '', scope: { kind: 'sites' } } },
    create: { method: 'POST', path: '/api/processes', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent suivre un refroidissement ou un maintien au chaud.', scope: { kind: 'sites' } } },
    addReading: { method: 'POST', path: '/api/processes/:id/readings', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent suivre un refroidissement ou un maintien au chaud.', scope: { kind: 'resource', resource: 'process' } } },
    end: { method: 'POST', path: '/api/processes/:id/end', access: { kind: 'members', roles: ['admin', 'manager'], message: 'Seuls un administrateur ou un responsable peuvent suivre un refroidissement ou un maintien au chaud.', scope: { kind: 'resource', resource: 'process' } } },
  },
} as const satisfies { readonly [area: string]: { readonly [name: string]: Route } };
