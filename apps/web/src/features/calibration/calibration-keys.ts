/** Query keys of the sensors' verification registers, per signed-in user so that accounts never share a cache. */
export const calibrationKeys = {
  all: (owner: string) => ['calibrations', owner] as const,
  list: (owner: string, sensorId: string) => ['calibrations', owner, 'list', sensorId] as const,
};
