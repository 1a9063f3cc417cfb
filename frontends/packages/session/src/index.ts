// The signed-in customer, shared by the shell and every remote as one singleton.
export { authorizedFetch, jsonBody, outcome, readJson, type Outcome } from './authorized-fetch';
export { CLIENT_VALIDATION_HEADER, clientValidation } from './client-validation';
export {
  loadWishlist,
  login,
  logout,
  refetchUser,
  setWished,
  setWishlist,
  startSession,
  takePageAnswer,
  takeStartWishlist,
  takeStartWishlistNow,
} from './session';
export {
  addCar,
  carLabel,
  chooseCar,
  closeGarage,
  GARAGE_KEY,
  GARAGE_MAX_CARS,
  getGarage,
  openGarage,
  removeCar,
  replaceGarage,
  subscribeGarage,
  useGarage,
  type GarageCar,
  type GarageState,
} from './garage';
export { getSession, type SessionState, type SessionStatus } from './store';
export { TOKEN_KEY } from './token';
export { useSession, useWished } from './use-session';
