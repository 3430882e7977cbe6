export function inputsHash(root: string): string
