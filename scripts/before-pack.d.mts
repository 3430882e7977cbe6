// Types for the beforePack hook's pure helpers (the hook itself is plain ESM so electron-builder can
// load it without a TypeScript step).
export declare const STAGE_DIR: string
export declare function pinnedOpencodeVersion(root?: string): string
export declare function opencodePackagesFor(platform: string, arch: string): string[]
export declare function binaryName(platform: string): string
export declare function stageDirFor(platform: string, arch: string, stageRoot?: string): string
export interface StagedBinary {
  pkgName: string
  version: string
  source: string
  dest: string
}
export declare function stageOpencode(opts: { platform: string; arch: string; root?: string; stageRoot?: string; allowFetch?: boolean; log?: (line: string) => void }): StagedBinary
declare function beforePack(context: unknown): Promise<void>
export default beforePack
