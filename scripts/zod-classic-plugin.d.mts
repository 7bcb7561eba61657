export const ZOD_CLASSIC_ID: string;
export function zodClassicSource(): Promise<string>;
export function zodClassicPlugin(): import('vite').Plugin;
