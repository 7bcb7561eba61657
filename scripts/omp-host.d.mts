export const OMP: string;
export const BUN: string;
export function ensureHost(): { installed: boolean; ms: number; error: string | null };
