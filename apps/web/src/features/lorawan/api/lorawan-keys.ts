/** Query keys of the LoRaWAN screens, per signed-in user so that accounts never share a cache. */
export const lorawanKeys = {
  all: (owner: string) => ['lorawan', owner] as const,
  integrations: (owner: string) => ['lorawan', owner, 'integrations'] as const,
  codecs: (owner: string) => ['lorawan', owner, 'codecs'] as const,
  devices: (owner: string) => ['lorawan', owner, 'devices'] as const,
  pending: (owner: string) => ['lorawan', owner, 'pending'] as const,
};
