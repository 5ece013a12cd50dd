// The specification's English fallback strings, to the letter, each written once.

/** A read that failed without a message of its own. */
export const LOAD_ERROR = 'Error loading data';
/** A device without a name. */
export const UNNAMED = 'Unnamed';
/** The description on a transmitter's card, and the name the dashboard gives a new one. */
export const TRANSMITTER_DESCRIPTION = 'Transmitter device';
export const NEW_TRANSMITTER = 'New transmitter';
/** The description on a sensor's card, and the name the dashboard gives a new one. */
export const SENSOR_DESCRIPTION = 'Sensor device';
export const NEW_SENSOR = 'New sensor';
