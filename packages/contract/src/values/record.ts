/** The record's plain values (no zod): what a browser bundle may import without the schemas. */

/** Guided corrective actions, as an inspector reads them. */
export const ACTION_KIND_LABELS = {
  products_moved: 'Produits transférés dans un autre meuble',
  products_checked: 'Température des produits contrôlée à la sonde',
  door_closed: 'Porte refermée',
  defrost: 'Dégivrage lancé',
  technician_called: 'Technicien appelé',
  unit_repaired: 'Meuble réparé',
  unit_emptied: 'Meuble vidé et mis hors service',
  other: 'Autre action',
} as const;
export const ACTION_KINDS = Object.keys(ACTION_KIND_LABELS) as (keyof typeof ACTION_KIND_LABELS)[];
export type ActionKind = keyof typeof ACTION_KIND_LABELS;
export const CHECK_KINDS = ['product', 'delivery', 'unit'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];
export const CHECK_KIND_LABELS: Record<CheckKind, string> = {
  product: 'Produit contrôlé à la sonde',
  delivery: 'Livraison à la réception',
  unit: 'Relevé manuel d’un meuble',
};
/** What became of the products of a unit out of limits. */
export const PRODUCT_FATE_LABELS = {
  kept: 'Conservés',
  downgraded: 'Déclassés',
  destroyed: 'Détruits',
} as const;
export type ProductOutcome = keyof typeof PRODUCT_FATE_LABELS;

export const QUANTITY_UNITS = ['kg', 'pièces', 'colis', 'L'] as const;
export type QuantityUnit = (typeof QUANTITY_UNITS)[number];
