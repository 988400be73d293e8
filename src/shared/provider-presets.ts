// OpenAI-compatible providers the Settings view offers. Data only: main and the window both read it.

export type ProviderPresetId =
  'openai' | 'openrouter' | 'deepseek' | 'ollama' | 'lm-studio' | 'llama-cpp' | 'vllm' | 'custom';

export interface ProviderPreset {
  readonly id: ProviderPresetId;
  readonly label: string;
  /** Empty for Custom: the person types it. */
  readonly baseUrl: string;
  /** Hosted services refuse requests without a key; local servers do not check one. */
  readonly needsApiKey: boolean;
  /** One line shown under the picker. */
  readonly hint: string;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: 'openai',
    label: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    needsApiKey: true,
    hint: 'Keys at platform.openai.com.',
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    needsApiKey: true,
    hint: 'Many models behind one key (openrouter.ai).',
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    baseUrl: 'https://api.deepseek.com/v1',
    needsApiKey: true,
    hint: 'Keys at platform.deepseek.com.',
  },
  {
    id: 'ollama',
    label: 'Ollama',
    baseUrl: 'http://127.0.0.1:11434/v1',
    needsApiKey: false,
    hint: 'Local; start it with `ollama serve` and pull a model first.',
  },
  {
    id: 'lm-studio',
    label: 'LM Studio',
    baseUrl: 'http://127.0.0.1:1234/v1',
    needsApiKey: false,
    hint: "Local; start the server in LM Studio's Developer tab.",
  },
  {
    id: 'llama-cpp',
    label: 'llama.cpp server',
    baseUrl: 'http://127.0.0.1:8080/v1',
    needsApiKey: false,
    hint: 'Local; `llama-server -m model.gguf` (a key only if started with --api-key).',
  },
  {
    id: 'vllm',
    label: 'vLLM',
    baseUrl: 'http://127.0.0.1:8000/v1',
    needsApiKey: false,
    hint: 'Local or remote; `vllm serve <model>` (a key only if started with --api-key).',
  },
  {
    id: 'custom',
    label: 'Custom',
    baseUrl: '',
    needsApiKey: false,
    hint: 'Any OpenAI-compatible endpoint; the base URL usually ends in /v1.',
  },
];

export const PROVIDER_PRESET_IDS = PROVIDER_PRESETS.map((p) => p.id) as [
  ProviderPresetId,
  ...ProviderPresetId[],
];

export const DEFAULT_PRESET_ID: ProviderPresetId = 'openai';

export function presetById(id: ProviderPresetId): ProviderPreset {
  const found = PROVIDER_PRESETS.find((p) => p.id === id);
  if (!found) throw new Error(`Unknown provider preset "${id}".`);
  return found;
}

/** The preset whose base URL this is (ignoring a trailing slash), else Custom. */
export function presetForBaseUrl(baseUrl: string): ProviderPreset {
  const norm = (u: string): string => u.trim().replace(/\/+$/, '');
  return (
    PROVIDER_PRESETS.find((p) => p.baseUrl !== '' && norm(p.baseUrl) === norm(baseUrl)) ??
    presetById('custom')
  );
}
