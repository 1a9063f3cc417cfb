// Tells a stand-in component which remote slot it fills and how to try loading it again.
import { createContext } from 'react';

export const RemoteSlotContext = createContext<{ remoteId: string; retry: () => void } | null>(null);
