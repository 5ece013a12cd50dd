import type { Role } from '@vigie/contract';

/** The roles as the interface names them (PRODUCT §9). */
export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrateur',
  manager: 'Responsable',
  viewer: 'Lecteur',
};
