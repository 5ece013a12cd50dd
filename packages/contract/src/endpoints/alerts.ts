import { z } from 'zod';
import {
  acknowledgeAlertRequestSchema,
  alertActionRequestSchema,
  alertListQuerySchema,
  alertListResponseSchema,
  alertResponseSchema,
  createRuleRequestSchema,
  resolveAlertRequestSchema,
  ruleListResponseSchema,
  ruleResponseSchema,
  updateRuleRequestSchema,
} from '../alerts.ts';
import { errorResponseSchema, idParamsSchema } from '../common.ts';
import { notificationPolicyResponseSchema, updateNotificationPolicyRequestSchema } from '../notifications.ts';
import { createPauseRequestSchema, pauseListQuerySchema, pauseListResponseSchema, pauseResponseSchema } from '../pauses.ts';
import {
  createRuleTemplateRequestSchema,
  ruleTemplateListResponseSchema,
  ruleTemplateResponseSchema,
  updateRuleTemplateRequestSchema,
} from '../rule-templates.ts';
import { admins, endpoint, everyone, managers, onResource, shared, wholeOrganization, withinSites } from './define.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
const policyErrors = { 400: errorResponseSchema, 401: errorResponseSchema };
const manageRules = managers("gérer les règles d'alerte");
const pauseAccess = managers('mettre en pause un capteur ou un magasin');
const handleAlerts = managers('traiter une alerte ; votre rôle permet seulement d’en accuser réception');
const tag = 'Alertes';
const manageTemplates = wholeOrganization(admins('gérer les modèles de règles de l’organisation'), 'gérer les modèles de règles');

/** The rules aimed at one sensor, or at a site. */
const ruleFilterSchema = z.strictObject({
  sensorId: z.uuid({ error: 'Identifiant invalide : un UUID est attendu.' }).optional(),
  siteId: z.uuid({ error: 'Identifiant invalide : un UUID est attendu.' }).optional(),
});

/** Acknowledging or resolving needs no body; an empty one is accepted. */
const optionalBody = <T extends z.ZodType>(schema: T) => schema.nullish();

/** Alert rules, the alerts they open, and who is told of them, for the caller's organization. */
export const alertEndpoints = {
  alertRules: {
    list: endpoint({
      method: 'GET',
      path: '/api/alert-rules',
      summary: 'Liste les règles d’alerte de l’organisation, ou celles qui visent un capteur (sensorId) ou un site (siteId).',
      tag,
      access: withinSites(everyone),
      schema: { querystring: ruleFilterSchema, response: { 200: ruleListResponseSchema, ...errors } },
    }),
    create: endpoint({
      method: 'POST',
      path: '/api/alert-rules',
      summary: 'Crée une règle d’alerte sur un capteur ou sur les capteurs d’un site.',
      description:
        'Une règle porte une condition (au-dessus, en dessous, hors d’une plage, hors ligne, batterie faible, dépassement prévu de 15 à 240 minutes), un délai avant l’alerte, une hystérésis, un planning (toujours, heures d’ouverture, heures de fermeture) et une gravité.',
      tag,
      access: withinSites(manageRules),
      schema: { body: createRuleRequestSchema, response: { 201: ruleResponseSchema, ...errors } },
    }),
    get: endpoint({
      method: 'GET',
      path: '/api/alert-rules/:id',
      summary: 'Lit une règle d’alerte ; une règle supprimée répond 404.',
      tag,
      access: onResource(everyone, 'alertRule'),
      schema: { params: idParamsSchema, response: { 200: ruleResponseSchema, ...errors } },
    }),
    update: endpoint({
      method: 'PUT',
      path: '/api/alert-rules/:id',
      summary: 'Modifie une règle d’alerte ; la désactiver clôt ses alertes actives.',
      tag,
      access: onResource(manageRules, 'alertRule'),
      schema: { params: idParamsSchema, body: updateRuleRequestSchema, response: { 200: ruleResponseSchema, ...errors } },
    }),
    remove: endpoint({
      method: 'DELETE',
      path: '/api/alert-rules/:id',
      summary: 'Supprime une règle d’alerte : ses alertes actives sont closes, leur historique gardé.',
      tag,
      access: onResource(manageRules, 'alertRule'),
      schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } },
    }),
  },
  ruleTemplates: {
    list: endpoint({
      method: 'GET',
      path: '/api/rule-templates',
      summary:
        'Liste les modèles de règles de l’organisation : chacun s’applique à tous les capteurs de sa grandeur dans ses sites et régions.',
      tag,
      access: shared(everyone),
      schema: { response: { 200: ruleTemplateListResponseSchema, ...errors } },
    }),
    create: endpoint({
      method: 'POST',
      path: '/api/rule-templates',
      summary:
        'Crée un modèle de règle : une règle est posée dans chaque site visé (sites, régions, ou tous), pour ses capteurs d’aujourd’hui et de demain.',
      description:
        'Verrouillé (`locked`, par défaut), un magasin peut resserrer ses règles mais pas les relâcher, les désactiver ni les supprimer. Sans `siteIds` ni `regionIds`, le modèle vaut pour tous les sites. Un site ajouté, ou rattaché à une région visée, reçoit sa règle aussitôt.',
      tag,
      access: manageTemplates,
      schema: {
        body: createRuleTemplateRequestSchema.meta({
          examples: [{ name: 'Crèmerie ≤ +4 °C', preset: 'chilled_very_perishable', locked: true, regionIds: [] }],
        }),
        response: { 201: ruleTemplateResponseSchema, ...errors },
      },
    }),
    update: endpoint({
      method: 'PUT',
      path: '/api/rule-templates/:id',
      summary: 'Modifie un modèle : toutes ses règles changent avec lui (les resserrements des magasins compris).',
      tag,
      access: manageTemplates,
      schema: { params: idParamsSchema, body: updateRuleTemplateRequestSchema, response: { 200: ruleTemplateResponseSchema, ...errors } },
    }),
    remove: endpoint({
      method: 'DELETE',
      path: '/api/rule-templates/:id',
      summary: 'Supprime un modèle et les règles qu’il a posées ; leurs alertes actives sont closes, leur historique gardé.',
      tag,
      access: manageTemplates,
      schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } },
    }),
  },
  alerts: {
    list: endpoint({
      method: 'GET',
      path: '/api/alerts',
      summary: 'Liste les alertes de l’organisation, la plus récente d’abord, chacune avec sa chronologie.',
      description: 'Filtres : `status` (`active` pour ouvertes ou acquittées, `open`, `acknowledged`, `resolved`), `sensorId`, `siteId`.',
      tag,
      access: withinSites(everyone),
      schema: { querystring: alertListQuerySchema, response: { 200: alertListResponseSchema, ...errors } },
    }),
    get: endpoint({
      method: 'GET',
      path: '/api/alerts/:id',
      summary: 'Lit une alerte avec toute sa chronologie.',
      tag,
      access: onResource(everyone, 'alert'),
      schema: { params: idParamsSchema, response: { 200: alertResponseSchema, ...errors } },
    }),
    acknowledge: endpoint({
      method: 'POST',
      path: '/api/alerts/:id/acknowledge',
      summary: 'Accuse réception d’une alerte, avec un commentaire facultatif.',
      description: 'Le corps est facultatif. Une alerte déjà acquittée ou close répond 409.',
      tag,
      access: onResource(everyone, 'alert'),
      schema: {
        params: idParamsSchema,
        body: optionalBody(acknowledgeAlertRequestSchema),
        response: { 200: alertResponseSchema, ...errors },
      },
    }),
    recordAction: endpoint({
      method: 'POST',
      path: '/api/alerts/:id/actions',
      summary:
        'Consigne une action corrective sur une alerte : choisie dans la liste (kind), écrite (text), ou les deux, avec le devenir des produits (fate).',
      tag,
      access: onResource(handleAlerts, 'alert'),
      schema: { params: idParamsSchema, body: alertActionRequestSchema, response: { 201: alertResponseSchema, ...errors } },
    }),
    resolve: endpoint({
      method: 'POST',
      path: '/api/alerts/:id/resolve',
      summary: 'Résout une alerte à la main, avec un texte facultatif.',
      description: 'Le corps est facultatif. Il faut au moins une action corrective (409 sinon) ; une alerte close répond 409.',
      tag,
      access: onResource(handleAlerts, 'alert'),
      schema: { params: idParamsSchema, body: optionalBody(resolveAlertRequestSchema), response: { 200: alertResponseSchema, ...errors } },
    }),
  },
  notificationPolicy: {
    get: endpoint({
      method: 'GET',
      path: '/api/notification-policy',
      summary: 'Lit la politique de notification : qui est prévenu des alertes, et comment Vigie insiste.',
      description:
        'Le secret de signature des webhooks (`webhookSecret`) n’est lu que par ceux qui peuvent modifier la politique : il vaut `null` pour les autres, qui voient aussi masqué en `***` un mot de passe écrit dans `webhookUrl`.',
      tag,
      access: shared(everyone),
      schema: { response: { 200: notificationPolicyResponseSchema, ...policyErrors } },
    }),
    update: endpoint({
      method: 'PUT',
      path: '/api/notification-policy',
      summary: 'Modifie la politique de notification : étapes d’escalade, rappels, webhook.',
      description:
        'Un webhook vers la boucle locale, un réseau privé ou local ou une adresse réservée est refusé (400). Le journal dit que le secret a été « renouvelé » ou « retiré », jamais sa valeur.',
      tag,
      access: wholeOrganization(managers('modifier les notifications'), 'modifier les notifications de l’organisation'),
      schema: { body: updateNotificationPolicyRequestSchema, response: { 200: notificationPolicyResponseSchema, ...policyErrors } },
    }),
  },
  pauses: {
    list: endpoint({
      method: 'GET',
      path: '/api/pauses',
      summary: 'Liste les pauses en cours des capteurs et des magasins que l’on voit, ou celles d’une période (from, to).',
      description:
        'Sans période, les pauses en cours. Avec from (et to, maintenant par défaut ; trois mois au plus), les pauses qui ont touché la période, terminées comprises, de la plus ancienne à la plus récente. Avec sensorId, seules celles qui ont tenu ce capteur : les siennes et celles de tout son magasin.',
      tag,
      access: withinSites(everyone),
      schema: { querystring: pauseListQuerySchema, response: { 200: pauseListResponseSchema, ...errors } },
    }),
    create: endpoint({
      method: 'POST',
      path: '/api/pauses',
      summary: 'Met en pause un capteur ou un magasin pour des travaux prévus (24 h au plus, renouvelable).',
      description:
        'Les règles continuent d’évaluer et les alertes de s’ouvrir ; leurs notifications attendent la fin de la pause, et une alerte encore active à ce moment-là notifie aussitôt. Mettre de nouveau en pause ce qui l’est remplace la pause. Les alertes actives le notent dans leur historique.',
      tag,
      access: withinSites(pauseAccess),
      schema: { body: createPauseRequestSchema, response: { 201: pauseResponseSchema, ...errors } },
    }),
    end: endpoint({
      method: 'DELETE',
      path: '/api/pauses/:id',
      summary: 'Termine une pause avant son heure : les notifications en attente partent aussitôt.',
      tag,
      access: withinSites(pauseAccess),
      schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } },
    }),
  },
};
