// The models feature as other features see it: what they import of it, and nothing else.
// (Features reach each other only through this file; .dependency-cruiser.cjs checks it.)
export { ModelPalette, ModelRow, starShortcut } from './ModelPalette'
export { ModelPicker } from './ModelPicker'
export { modelForPrompt, modelKey, modelOptions, resolveModel, serverDefaultModel } from './model-choice'
export type { ModelOption, ResolvedModel } from './model-choice'
export { modelSections } from './model-list'
export { useModelPrefs } from './model-prefs-store'
export { choiceKey, useModelStore } from './model-store'
