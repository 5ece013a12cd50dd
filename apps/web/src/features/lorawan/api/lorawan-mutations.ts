import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  Codec,
  CodecOutcome,
  CreatedIntegrationResponse,
  CreateIntegrationRequest,
  Integration,
  PendingLorawanDevice,
  RegisterLorawanDeviceRequest,
  SaveCodecRequest,
  Sensor,
  TestCodecRequest,
} from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { lorawanKeys } from './lorawan-keys';

export type CreatedIntegration = CreatedIntegrationResponse['integration'];

/** endpoints.integrations.create: the integration with its secret, which the server shows this once. */
export async function createIntegration(request: CreateIntegrationRequest): Promise<CreatedIntegration> {
  const data = await call(endpoints.integrations.create, { body: request });
  if (!data?.integration?.secret) throw new Error('L’intégration n’a pas été créée.');
  return data.integration;
}

/** endpoints.lorawan.register: the sensor, named by its DevEUI, with its codec and its use's rule. */
export async function registerLorawanDevice(request: RegisterLorawanDeviceRequest): Promise<Sensor> {
  const data = await call(endpoints.lorawan.register, { body: request });
  if (!data?.sensor) throw new Error('Le capteur n’a pas été ajouté.');
  return data.sensor;
}

/** The new integration shows in the list at once, without its secret; then the list is read again. */
export function useCreateIntegration() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: createIntegration,
    onSuccess: ({ secret: _secret, ...integration }) => {
      queryClient.setQueryData<Integration[]>(lorawanKeys.integrations(owner), (list) => (list ? [...list, integration] : list));
      return queryClient.invalidateQueries({ queryKey: lorawanKeys.integrations(owner) });
    },
  });
}

/** endpoints.integrations.remove: its network server is no longer listened to. */
export function useDeleteIntegration() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (id: string) => call(endpoints.integrations.remove, { params: { id } }),
    onSuccess: (_data, id) => {
      queryClient.setQueryData<Integration[]>(lorawanKeys.integrations(owner), (list) => list?.filter((item) => item.id !== id));
      return queryClient.invalidateQueries({ queryKey: lorawanKeys.integrations(owner) });
    },
  });
}

/** Drops a DevEUI from the detected devices at once, before the lists are read again. */
function useForgetPending() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return (devEui: string) =>
    queryClient.setQueryData<PendingLorawanDevice[]>(lorawanKeys.pending(owner), (list) => list?.filter((item) => item.devEui !== devEui));
}

/** Adopts a detected device (or registers one by its DevEUI): it leaves the detected devices and joins the registered ones. */
export function useRegisterLorawanDevice() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  const forget = useForgetPending();
  return useMutation({
    mutationFn: registerLorawanDevice,
    onSuccess: (_sensor, request) => {
      forget(request.devEui.replace(/[\s:-]/g, '').toLowerCase());
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: lorawanKeys.pending(owner) }),
        queryClient.invalidateQueries({ queryKey: lorawanKeys.devices(owner) }),
      ]);
    },
  });
}

/** endpoints.lorawan.dismiss: the device leaves the list, and comes back if it sends again. */
export function useDismissPending() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  const forget = useForgetPending();
  return useMutation({
    mutationFn: (devEui: string) => call(endpoints.lorawan.dismiss, { params: { devEui } }),
    onSuccess: (_data, devEui) => {
      forget(devEui);
      return queryClient.invalidateQueries({ queryKey: lorawanKeys.pending(owner) });
    },
  });
}

/** A pasted codec's id as devices name it (`custom:<uuid>`); its uuid is what the API deletes by. */
export const PASTED_CODEC_PREFIX = 'custom:';

/** endpoints.lorawan.testCodec: what a pasted codec makes of a sample frame, or why it could not. */
export async function testCodec(request: TestCodecRequest): Promise<CodecOutcome> {
  const data = await call(endpoints.lorawan.testCodec, { body: request });
  if (!data?.result) throw new Error('Le décodeur n’a pas pu être essayé.');
  return data.result;
}

/** endpoints.lorawan.saveCodec: the codec, once the server has decoded its sample frame with it. */
export async function saveCodec(request: SaveCodecRequest): Promise<Codec> {
  const data = await call(endpoints.lorawan.saveCodec, { body: request });
  if (!data?.codec) throw new Error('Le décodeur n’a pas été enregistré.');
  return data.codec;
}

/** Tries a pasted codec on a sample frame: nothing is saved. */
export function useTestCodec() {
  return useMutation({ mutationFn: testCodec });
}

/** A saved codec joins the codecs at once (the adoption dialog offers it), then they are read again. */
export function useSaveCodec() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: saveCodec,
    onSuccess: (codec) => {
      queryClient.setQueryData<Codec[]>(lorawanKeys.codecs(owner), (list) => (list ? [...list, codec] : list));
      return queryClient.invalidateQueries({ queryKey: lorawanKeys.codecs(owner) });
    },
  });
}

/** endpoints.lorawan.removeCodec: refused (409) while devices still read their frames with it. */
export function useDeleteCodec() {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: (codecId: string) => call(endpoints.lorawan.removeCodec, { params: { id: codecId.slice(PASTED_CODEC_PREFIX.length) } }),
    onSuccess: (_data, codecId) => {
      queryClient.setQueryData<Codec[]>(lorawanKeys.codecs(owner), (list) => list?.filter((codec) => codec.id !== codecId));
      return queryClient.invalidateQueries({ queryKey: lorawanKeys.codecs(owner) });
    },
  });
}
