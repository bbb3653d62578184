"""LLM / VLM judges behind an OpenAI-compatible endpoint (vLLM server or a hosted API)."""
