import { claimProvisionRequestSchema, endpoints, provisionRequestSchema } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { badRequest, unauthorized } from '../../errors.ts';
import type { ClaimingService } from './claiming-service.ts';
import type { CredentialService } from './credential-service.ts';
import type { ProvisioningService } from './provisioning-service.ts';
import type { TelemetryService } from '../telemetry/telemetry-service.ts';
import { route } from '../../plugins/endpoint-route.ts';

/** A batch of 1 000 readings with a few values each fits well within this. */
export const TELEMETRY_BODY_LIMIT = 1024 * 1024;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The first problem of a body, worded as the schema validation of every other route words it. */
function invalid(error: z.ZodError): Error {
  const issue = error.issues[0];
  const field = issue?.path.join('.');
  const message = issue?.message ?? 'Requête invalide.';
  return badRequest(field ? `${message} (champ « ${field} »)` : message);
}

/** The public device protocol (docs/protocole-appareils.md): what devices call, with their own credentials. */
export const deviceProtocolRoutes: FastifyPluginAsyncZod<{
  provisioning: ProvisioningService;
  claiming: Pick<ClaimingService, 'provision'>;
  credentials: Pick<CredentialService, 'authenticate'>;
  telemetry: Pick<TelemetryService, 'ingest'>;
  protocol: { mqttPort: number | null };
}> = async (app, { provisioning, claiming, credentials, telemetry, protocol }) => {
  app.route({
    ...route(endpoints.devices.protocol),
    handler: async () => ({
      mqttPort: protocol.mqttPort,
      provisionPath: endpoints.devices.provision.path,
      telemetryPath: endpoints.devices.telemetry.path,
      telemetryTopic: 'vigie/devices/{deviceId}/telemetry' as const,
      errorsTopic: 'vigie/devices/{deviceId}/errors' as const,
    }),
  });

  // Two ways in: the organization's installation key, or the code of a factory label (docs/protocole-appareils.md).
  app.route({
    ...route(endpoints.devices.provision),
    bodyLimit: 16 * 1024,
    handler: async (request, reply) => {
      const body = request.body;
      if (typeof body === 'object' && body !== null && 'claimCode' in body) {
        const parsed = claimProvisionRequestSchema.safeParse(body);
        if (!parsed.success) throw invalid(parsed.error);
        const answer = await claiming.provision(parsed.data, request.ip);
        return 'status' in answer ? reply.code(202).send(answer) : reply.code(201).send(answer);
      }
      const parsed = provisionRequestSchema.safeParse(body);
      if (!parsed.success) throw invalid(parsed.error);
      return reply.code(201).send(await provisioning.provision(parsed.data, request.ip));
    },
  });

  app.route({
    ...route(endpoints.devices.telemetry),
    bodyLimit: TELEMETRY_BODY_LIMIT,
    // Thousands of requests a second: log only what goes wrong.
    logLevel: 'warn',
    onRequest: async (request) => {
      const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
      const device = await credentials.authenticate(token);
      if (!device) throw unauthorized("Jeton d'appareil absent, invalide ou révoqué : réinstallez l'appareil ou générez un nouveau jeton.");
      request.device = device;
    },
    handler: async (request, reply) => {
      const device = request.device;
      if (!device) throw unauthorized("Jeton d'appareil absent.");
      const { accepted, duplicates } = await telemetry.ingest(device, request.body);
      // `duplicates` only when some were: a message stored as sent is still answered `{"accepted": n}`.
      return reply.code(202).send(duplicates > 0 ? { accepted, duplicates } : { accepted });
    },
  });
};
