// Models and providers: the model picker and palette, the chosen model per session, provider keys and sign-in.
// This index is what other features use of it (the only way in: .dependency-cruiser.cjs).
export { ModelPalette, ModelRow, rowValue, starShortcut } from './ModelPalette'
export { ModelPicker } from './ModelPicker'
export { modelForPrompt, modelKey, modelOptions, resolveModel, serverDefaultModel } from './model-choice'
export type { ModelOption, ResolvedModel } from './model-choice'
export { modelSections } from './model-list'
export { useModelPrefs } from './model-prefs-store'
export { choiceKey, useModelStore } from './model-store'
