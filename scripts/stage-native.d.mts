// Types for the native-module staging used by the beforePack hook (plain ESM, like the hook).
export declare const NATIVE_STAGE_DIR: string
export declare function nativeModulesFor(platform: string, arch: string): { name: string; binary: string | null }[]
export declare function stageNative(opts: { platform: string; arch: string; root?: string; stageRoot?: string; allowFetch?: boolean; log?: (line: string) => void }): {
  dir: string
  staged: string[]
}
