"""The VLM judges, group picks and rubrics; every endpoint call goes through cogevol.llm (the
OpenAI-compatible client, a vLLM server or a hosted API)."""
