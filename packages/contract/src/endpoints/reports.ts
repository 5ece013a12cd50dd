/** Filled area by area as the routes move to the catalogue. */
export const reportEndpoints = {};
