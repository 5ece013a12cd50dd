/** Devices' plain values (no zod): what a browser bundle may import without the schemas. */

/**
 * A battery at or below this level is flagged as low on cards, lists and the chain's overview: most
 * LoRaWAN and Wi-Fi sensors have weeks left at 30 %, time to plan the change rather than rush it.
 */
export const LOW_BATTERY_PERCENT = 30;
