export type { Profile, Tempo, ProfileOverrides } from './profile';
export { PROFILES, findProfile } from './profiles';
