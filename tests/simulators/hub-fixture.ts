// Hub fixture for the provider SIMULATOR (test tool, never shipped as a provider).
// Derived (copied into this file) from the reference data's provider-mappings.jsonl (see its README and
// provider-mappings.md for its sources: huggingface/hub-docs, huggingface/huggingface_hub,
// huggingface/huggingface.js). Filtered to the providers @huggingface/inference 3.13.1 knows;
// a null recorded status is written as "live" because the Hub always sends one.
// "conversational" tags are added to chat models so snippet generation picks chat templates.

export interface HubFixtureMapping {
  status: "live" | "staging";
  providerId: string;
  task: string;
  adapter?: string;
  adapterWeightsPath?: string;
}

export interface HubFixtureModel {
  id: string;
  pipeline_tag: string;
  tags: string[];
  inferenceProviderMapping: Record<string, HubFixtureMapping>;
  /** The repo's README.md, served at /<id>/raw/<rev>/README.md (404 when absent). */
  readme?: string;
  /** Extra fields of the full /api/models/<id> record (sha, siblings, config, cardData, …). */
  details?: Record<string, unknown>;
}

export const HUB_FIXTURE_MODELS: HubFixtureModel[] = [
  {
    "id": "meta-llama/Llama-3.3-70B-Instruct",
    "pipeline_tag": "text-generation",
    "tags": [
      "conversational"
    ],
    "inferenceProviderMapping": {
      "cerebras": {
        "status": "live",
        "providerId": "llama-3.3-70b",
        "task": "conversational"
      },
      "fireworks-ai": {
        "status": "live",
        "providerId": "accounts/fireworks/models/llama-v3p3-70b-instruct",
        "task": "conversational"
      },
      "groq": {
        "status": "live",
        "providerId": "llama-3.3-70b-versatile",
        "task": "conversational"
      },
      "hf-inference": {
        "status": "live",
        "providerId": "meta-llama/Llama-3.3-70B-Instruct",
        "task": "conversational"
      },
      "hyperbolic": {
        "status": "live",
        "providerId": "meta-llama/Llama-3.3-70B-Instruct",
        "task": "conversational"
      },
      "nebius": {
        "status": "live",
        "providerId": "meta-llama/Llama-3.3-70B-Instruct-fast",
        "task": "conversational"
      },
      "novita": {
        "status": "live",
        "providerId": "meta-llama/llama-3.3-70b-instruct",
        "task": "conversational"
      },
      "sambanova": {
        "status": "live",
        "providerId": "Meta-Llama-3.3-70B-Instruct",
        "task": "conversational"
      },
      "together": {
        "status": "live",
        "providerId": "meta-llama/Llama-3.3-70B-Instruct-Turbo",
        "task": "conversational"
      }
    }
  },
  {
    "id": "meta-llama/Llama-3.1-8B-Instruct",
    "pipeline_tag": "text-generation",
    "tags": [
      "conversational"
    ],
    "inferenceProviderMapping": {
      "cerebras": {
        "status": "live",
        "providerId": "llama3.1-8b",
        "task": "conversational"
      },
      "featherless-ai": {
        "status": "live",
        "providerId": "meta-llama/Meta-Llama-3.1-8B-Instruct",
        "task": "conversational"
      },
      "fireworks-ai": {
        "status": "live",
        "providerId": "accounts/fireworks/models/llama-v3p1-8b-instruct",
        "task": "conversational"
      },
      "hf-inference": {
        "status": "live",
        "providerId": "meta-llama/Llama-3.1-8B-Instruct",
        "task": "conversational"
      },
      "hyperbolic": {
        "status": "staging",
        "providerId": "meta-llama/Meta-Llama-3.1-8B-Instruct",
        "task": "conversational"
      },
      "nebius": {
        "status": "live",
        "providerId": "meta-llama/Meta-Llama-3.1-8B-Instruct-fast",
        "task": "conversational"
      },
      "novita": {
        "status": "live",
        "providerId": "meta-llama/llama-3.1-8b-instruct",
        "task": "conversational"
      },
      "nscale": {
        "status": "live",
        "providerId": "meta-llama/Llama-3.1-8B-Instruct",
        "task": "conversational"
      },
      "ovhcloud": {
        "status": "live",
        "providerId": "Llama-3.1-8B-Instruct",
        "task": "conversational"
      },
      "sambanova": {
        "status": "live",
        "providerId": "Meta-Llama-3.1-8B-Instruct",
        "task": "conversational"
      }
    }
  },
  {
    "id": "CohereLabs/c4ai-command-r-plus",
    "pipeline_tag": "text-generation",
    "tags": [
      "conversational"
    ],
    "inferenceProviderMapping": {
      "cohere": {
        "status": "live",
        "providerId": "command-r-plus-04-2024",
        "task": "conversational"
      }
    }
  },
  {
    "id": "deepseek-ai/DeepSeek-R1",
    "pipeline_tag": "text-generation",
    "tags": [
      "conversational"
    ],
    "inferenceProviderMapping": {
      "fireworks-ai": {
        "status": "live",
        "providerId": "accounts/fireworks/models/deepseek-r1",
        "task": "conversational"
      },
      "hyperbolic": {
        "status": "live",
        "providerId": "deepseek-ai/DeepSeek-R1",
        "task": "conversational"
      },
      "sambanova": {
        "status": "live",
        "providerId": "DeepSeek-R1",
        "task": "conversational"
      },
      "together": {
        "status": "live",
        "providerId": "deepseek-ai/DeepSeek-R1",
        "task": "conversational"
      }
    }
  },
  {
    "id": "distilbert/distilbert-base-uncased-finetuned-sst-2-english",
    "pipeline_tag": "text-classification",
    "tags": [],
    "inferenceProviderMapping": {
      "hf-inference": {
        "status": "live",
        "providerId": "distilbert/distilbert-base-uncased-finetuned-sst-2-english",
        "task": "text-classification"
      }
    }
  },
  {
    "id": "dslim/bert-base-NER",
    "pipeline_tag": "token-classification",
    "tags": [],
    "inferenceProviderMapping": {
      "hf-inference": {
        "status": "live",
        "providerId": "dslim/bert-base-NER",
        "task": "token-classification"
      }
    }
  },
  {
    "id": "google-bert/bert-base-uncased",
    "pipeline_tag": "fill-mask",
    "tags": [],
    "inferenceProviderMapping": {
      "hf-inference": {
        "status": "live",
        "providerId": "google-bert/bert-base-uncased",
        "task": "fill-mask"
      }
    }
  },
  {
    "id": "deepset/roberta-base-squad2",
    "pipeline_tag": "question-answering",
    "tags": [],
    "inferenceProviderMapping": {
      "hf-inference": {
        "status": "live",
        "providerId": "deepset/roberta-base-squad2",
        "task": "question-answering"
      }
    }
  },
  {
    "id": "facebook/bart-large-cnn",
    "pipeline_tag": "summarization",
    "tags": [],
    "inferenceProviderMapping": {
      "hf-inference": {
        "status": "live",
        "providerId": "facebook/bart-large-cnn",
        "task": "summarization"
      }
    }
  },
  {
    "id": "BAAI/bge-small-en-v1.5",
    "pipeline_tag": "feature-extraction",
    "tags": [],
    "inferenceProviderMapping": {
      "hf-inference": {
        "status": "live",
        "providerId": "BAAI/bge-small-en-v1.5",
        "task": "feature-extraction"
      }
    }
  },
  {
    "id": "google/vit-base-patch16-224",
    "pipeline_tag": "image-classification",
    "tags": [],
    "inferenceProviderMapping": {
      "hf-inference": {
        "status": "live",
        "providerId": "google/vit-base-patch16-224",
        "task": "image-classification"
      }
    }
  },
  {
    "id": "black-forest-labs/FLUX.1-dev",
    "pipeline_tag": "text-to-image",
    "tags": [],
    "inferenceProviderMapping": {
      "black-forest-labs": {
        "status": "staging",
        "providerId": "flux-dev",
        "task": "text-to-image"
      },
      "fal-ai": {
        "status": "live",
        "providerId": "fal-ai/flux/dev",
        "task": "text-to-image"
      },
      "hf-inference": {
        "status": "live",
        "providerId": "black-forest-labs/FLUX.1-dev",
        "task": "text-to-image"
      },
      "nebius": {
        "status": "staging",
        "providerId": "black-forest-labs/flux-dev",
        "task": "text-to-image"
      },
      "replicate": {
        "status": "live",
        "providerId": "black-forest-labs/flux-dev",
        "task": "text-to-image"
      },
      "together": {
        "status": "live",
        "providerId": "black-forest-labs/FLUX.1-dev",
        "task": "text-to-image"
      }
    }
  },
  {
    "id": "stabilityai/stable-diffusion-2",
    "pipeline_tag": "text-to-image",
    "tags": [],
    "inferenceProviderMapping": {
      "hf-inference": {
        "status": "live",
        "providerId": "stabilityai/stable-diffusion-2",
        "task": "text-to-image"
      },
      "hyperbolic": {
        "status": "staging",
        "providerId": "SD2",
        "task": "text-to-image"
      }
    }
  },
  {
    "id": "openai/whisper-large-v3",
    "pipeline_tag": "automatic-speech-recognition",
    "tags": [],
    "inferenceProviderMapping": {
      "fal-ai": {
        "status": "live",
        "providerId": "fal-ai/whisper",
        "task": "automatic-speech-recognition"
      },
      "hf-inference": {
        "status": "live",
        "providerId": "openai/whisper-large-v3",
        "task": "automatic-speech-recognition"
      },
      "replicate": {
        "status": "live",
        "providerId": "openai/whisper:8099696689d249cf8b122d833c36ac3f75505c666a395ca40ef26f68e7d3d16e",
        "task": "automatic-speech-recognition"
      },
      "sambanova": {
        "status": "live",
        "providerId": "Whisper-Large-v3",
        "task": "automatic-speech-recognition"
      },
      "together": {
        "status": "live",
        "providerId": "openai/whisper-large-v3",
        "task": "automatic-speech-recognition"
      }
    }
  },
  {
    "id": "Lightricks/LTX-Video",
    "pipeline_tag": "text-to-video",
    "tags": [],
    "inferenceProviderMapping": {
      "fal-ai": {
        "status": "live",
        "providerId": "fal-ai/ltx-video",
        "task": "text-to-video"
      },
      "replicate": {
        "status": "live",
        "providerId": "lightricks/ltx-video:8c47da666861d081eeb4d1261853087de23923a268a69b63febdf5dc1dee08e4",
        "task": "text-to-video"
      }
    }
  },
  {
    "id": "hexgrad/Kokoro-82M",
    "pipeline_tag": "text-to-speech",
    "tags": [],
    "inferenceProviderMapping": {
      "replicate": {
        "status": "live",
        "providerId": "jaaari/kokoro-82m:dfdf537ba482b029e0a761699e6f55e9162cfd159270bfe0e44857caa5f275a6",
        "task": "text-to-speech"
      }
    }
  },
  {
    "id": "intfloat/e5-mistral-7b-instruct",
    "pipeline_tag": "feature-extraction",
    "tags": [],
    "inferenceProviderMapping": {
      "nebius": {
        "status": "live",
        "providerId": "intfloat/e5-mistral-7b-instruct",
        "task": "feature-extraction"
      },
      "sambanova": {
        "status": "live",
        "providerId": "E5-Mistral-7B-Instruct",
        "task": "feature-extraction"
      }
    }
  }
];
