/** Telemetry health and the test controls (clock, telemetry flush, failpoints). */
import { type Handler, required } from './route-handler.js';

export const telemetryHealth: Handler<'telemetryHealth'> = ({ target }) => required(target.telemetry).health();

export const controlTelemetryFlush: Handler<'controlTelemetryFlush'> = async ({ target }) => {
  await required(target.telemetry).flush();
  return {};
};

export const controlClockNow: Handler<'controlClockNow'> = async ({ target }) => ({
  now: await required(target.clock).now(),
});

export const controlClockAdvance: Handler<'controlClockAdvance'> = async ({ target, body }) => {
  const clock = required(target.clock);
  await clock.advance(body.ms);
  return { now: await clock.now() };
};

export const controlFailpointSet: Handler<'controlFailpointSet'> = async ({ target, params, body }) => {
  await required(target.faults).setFailpoint(params.name, body);
  return {};
};

export const controlFailpointsClear: Handler<'controlFailpointsClear'> = async ({ target }) => {
  await required(target.faults).clearFailpoints();
  return {};
};

export const controlProcessIds: Handler<'controlProcessIds'> = async ({ target }) => {
  const f = required(target.faults);
  const r = await required(f.processIds).call(f);
  return { controlPlane: r.controlPlane, workers: [...r.workers] };
};

export const controlProcessSignal: Handler<'controlProcessSignal'> = async ({ target, body }) => {
  const f = required(target.faults);
  await required(f.killPart).call(f, body.part, body.signal);
  return {};
};

export const controlProcessRestart: Handler<'controlProcessRestart'> = async ({ target, body }) => {
  const f = required(target.faults);
  await required(f.restartPart).call(f, body.part);
  return {};
};

export const controlPodCachePoison: Handler<'controlPodCachePoison'> = async ({ target, body }) => {
  const f = required(target.faults);
  await required(f.poisonLocalCache).call(f, body.bindingId, body.marker);
  return {};
};

export const controlNetworkLinks: Handler<'controlNetworkLinks'> = async ({ target }) => {
  const f = required(target.faults);
  return required(f.networkLinks).call(f);
};

export const controlStorageResidue: Handler<'controlStorageResidue'> = async ({ target, body }) => {
  const s = required(target.storage);
  const r = await s.residue(body.needle);
  return { locations: [...r.locations], found: [...r.found] };
};
