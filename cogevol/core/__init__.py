"""The bottom layer: what every stage and reward stands on and nothing in it imports from above.
params.yaml access (config), the error base, logging, hashing, process pools, progress lines,
sharded JSONL files, text normalisation, language identification and the lexicons."""
